import { describe, expect, it } from "vitest";
import { financeUrl } from "./FinanceFrame";

describe("finance frames", () => {
  it("join financeBaseUrl and the page, with the user id when asked", () => {
    expect(financeUrl("https://fin.example.com/app/", "listarPix", { id: 7 })).toBe("https://fin.example.com/app/listarPix?id=7");
    expect(financeUrl("https://fin.example.com", "/ajustes")).toBe("https://fin.example.com/ajustes");
  });
  it("answer nothing while the address is not set or not http(s)", () => {
    expect(financeUrl("", "listarPix")).toBeNull();
    expect(financeUrl("javascript:alert(1)", "listarPix")).toBeNull();
  });
});
