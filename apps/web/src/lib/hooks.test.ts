import { describe, expect, it } from "vitest";
import { nearBottom } from "../components/CardGrid";
import { pickLanguage } from "../locales";
import { initials, searchTerm } from "./hooks";
import { readVolume } from "./volume";

describe("card-grid rules", () => {
  it("initials use 2 letters", () => {
    expect(initials("Maria da Silva")).toBe("MS");
    expect(initials("joão")).toBe("JO");
    expect(initials("  ")).toBe("?");
  });
  it("search is sent from 3 characters", () => {
    expect(searchTerm("ab", 3)).toBe("");
    expect(searchTerm(" abc ", 3)).toBe("abc");
  });
  it("the next page loads within 100 px of the bottom", () => {
    expect(nearBottom({ scrollHeight: 1000, clientHeight: 500, scrollTop: 400 })).toBe(true);
    expect(nearBottom({ scrollHeight: 1000, clientHeight: 500, scrollTop: 399 })).toBe(false);
  });
});

describe("preferences", () => {
  it("volume defaults to 1 and accepts only 0..1", () => {
    const storage = (v: string | null) => ({ getItem: () => v });
    expect(readVolume(storage(null))).toBe(1);
    expect(readVolume(storage("0.3"))).toBe(0.3);
    expect(readVolume(storage("7"))).toBe(1);
    expect(readVolume(storage("abc"))).toBe(1);
  });
  it("a stored Brazilian Portuguese choice wins; otherwise the browser's language; English as fallback", () => {
    expect(pickLanguage("pt-BR", ["en-US"])).toBe("pt-BR");
    expect(pickLanguage(null, ["es-AR", "en"])).toBe("es");
    expect(pickLanguage(null, ["de-DE"])).toBe("en");
    expect(pickLanguage("xx", ["pt-PT"])).toBe("pt-BR");
  });
});
