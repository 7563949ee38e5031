import { describe, expect, it } from "vitest";
import { SWATCHES } from "./components/QueueDialog";
import { contrastRatio, textOn } from "../../lib/contrast";

describe("text on queue and tag colours", () => {
  it("reaches 4.5:1 (WCAG AA) on every colour the queue form offers", () => {
    for (const color of SWATCHES) expect(contrastRatio(color, textOn(color)), color).toBeGreaterThanOrEqual(4.5);
  });
  it("reaches 4.5:1 on any colour a picker can give", () => {
    for (let i = 0; i < 4096; i++) {
      const color = `#${i.toString(16).padStart(3, "0")}`;
      expect(contrastRatio(color, textOn(color)), color).toBeGreaterThanOrEqual(4.5);
    }
  });
  it("yellow gets black text; deep blue gets white", () => {
    expect(textOn("#fdd835")).toBe("#000000");
    expect(textOn("#3949ab")).toBe("#ffffff");
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21);
  });
});
