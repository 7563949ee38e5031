import { describe, expect, it } from "vitest";
import { sectionInView, sectionOfHash } from "./components/SettingsNav";

describe("the settings' section list", () => {
  const ids = ["pix", "company", "mail", "access"];

  it("a URL's hash names a section", () => {
    expect(sectionOfHash("#mail", ids)).toBe("mail");
    expect(sectionOfHash("mail", ids)).toBe("mail");
    expect(sectionOfHash("#nada", ids)).toBeUndefined();
    expect(sectionOfHash("", ids)).toBeUndefined();
  });

  it("the section being read is the last whose top passed the reading line", () => {
    expect(sectionInView([0, 500, 1200, 1900], false)).toBe(0);
    expect(sectionInView([-600, 40, 700, 1400], false)).toBe(1);
    expect(sectionInView([-1600, -900, -200, 300], false)).toBe(2);
  });

  it("at the bottom of the page, the last section (too short to reach the top)", () => {
    expect(sectionInView([-1600, -900, -200, 300], true)).toBe(3);
    expect(sectionInView([], false)).toBe(-1);
  });
});
