import { formatCpf, isValidCpf } from "@balcao/contract";
import { describe, expect, it } from "vitest";

describe("witness CPF", () => {
  it("is shown as 000.000.000-00 while typed", () => {
    expect(formatCpf("529")).toBe("529");
    expect(formatCpf("5299822")).toBe("529.982.2");
    expect(formatCpf("52998224725")).toBe("529.982.247-25");
    expect(formatCpf("529.982.247-2599")).toBe("529.982.247-25");
  });
  it("needs both check digits right", () => {
    expect(isValidCpf("52998224725")).toBe(true);
    expect(isValidCpf("52998224715")).toBe(false);
    expect(isValidCpf("52998224724")).toBe(false);
    expect(isValidCpf("00000000000")).toBe(false);
    expect(isValidCpf("5299822472")).toBe(false);
  });
});
