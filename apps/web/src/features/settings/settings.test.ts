import { cnpjSettingValue, formatCnpj, formatCpf, isValidCpf } from "@balcao/contract";
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

describe("company CNPJ", () => {
  it("is shown as 00.000.000/0000-00 while typed", () => {
    expect(formatCnpj("11")).toBe("11");
    expect(formatCnpj("112223")).toBe("11.222.3");
    expect(formatCnpj("112223330001")).toBe("11.222.333/0001");
    expect(formatCnpj("11222333000181")).toBe("11.222.333/0001-81");
  });
  it("is checked by its check digits with the server's schema, kept without the mask", () => {
    expect(cnpjSettingValue.safeParse("11.222.333/0001-81").data).toBe("11222333000181");
    expect(cnpjSettingValue.safeParse("").data).toBe("");
    for (const bad of ["11.222.333/0001-82", "11111111111111", "1122233300018", "11.222.333/0001-81!"])
      expect(cnpjSettingValue.safeParse(bad).success, bad).toBe(false);
  });
});
