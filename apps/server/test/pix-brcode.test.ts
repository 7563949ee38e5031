import { isValidCnpj, isValidCpf } from "@balcao/contract";
import { describe, expect, it } from "vitest";
import {
  buildBrCode,
  crc16ccittFalse,
  normalizeMerchantText,
  parseBrCode,
  parseTlv,
  pixKeyProblem,
  safeTxid,
} from "../src/lib/pix-brcode.js";

/** The published vectors of shared/reference/pix-brcode.md §4, and the CPF/CNPJ check digits. */
const VECTORS = [
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D",
  "00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914Thales Ogliari6015SAO MIGUEL DO O62070503***63044367",
  "00020101021126380014BR.GOV.BCB.PIX0116test@mail.com.br5204000053039865406100.995802BR5913Fulano de Tal6009SAO PAULO6304442D",
  "00020126330014BR.GOV.BCB.PIX01115794666323452040000530398654041.005802BR5925CLENILTON CRUZ DE ALENCAR6006MANAUS62070503***6304FA88",
  "00020126360014br.gov.bcb.pix011412345678000195520400005303986540589.905802BR5924PROVEDOR EXEMPLO TELECOM6015SAO MIGUEL DO O62120508FAT123456304DB0C",
];

describe("CRC16-CCITT-FALSE", () => {
  it("gives 29B1 for the standard check string", () => expect(crc16ccittFalse("123456789")).toBe("29B1"));
  it.each(VECTORS)("recomputes the CRC of a published vector: %s", (v) => {
    expect(crc16ccittFalse(v.slice(0, -4))).toBe(v.slice(-4));
  });
});

describe("BR Code parse", () => {
  it("reads every vector back into fields in lenient mode", () => {
    for (const v of VECTORS) {
      const f = parseBrCode(v);
      expect(f.get("00")).toBe("01");
      expect(f.get("58")).toBe("BR");
    }
  });
  it("refuses vector 3 in strict mode (no field 62) and accepts the others", () => {
    expect(() => parseBrCode(VECTORS[2], { strict: true })).toThrow(/62-05/);
    for (const v of [VECTORS[0], VECTORS[1], VECTORS[3], VECTORS[4]]) expect(() => parseBrCode(v, { strict: true })).not.toThrow();
  });
  it("refuses a code whose CRC does not match (the widely copied malformed gist example)", () => {
    const broken = `${VECTORS[0].slice(0, -4)}0000`;
    expect(() => parseBrCode(broken)).toThrow(/CRC/);
  });
});

describe("BR Code build", () => {
  it("builds vector 5 exactly: CNPJ key, amount 89.90, txid FAT12345, accented city truncated", () => {
    const code = buildBrCode({
      key: "12345678000195",
      merchantName: "Provedor Exemplo Telecom",
      merchantCity: "São Miguel do Oeste",
      amount: 89.9,
      txid: "FAT12345",
    });
    expect(code).toBe(VECTORS[4]);
  });
  it("builds vector 1 exactly: random key, no amount, no txid", () => {
    const code = buildBrCode({ key: "123e4567-e12b-12d1-a456-426655440000", merchantName: "Fulano de Tal", merchantCity: "Brasilia" });
    // vector 1 keeps the name's case; ours upper-cases it: same fields otherwise
    expect(code.replace("FULANO DE TAL", "Fulano de Tal").slice(0, -4)).toBe(VECTORS[0].slice(0, -4));
    expect(() => parseBrCode(code, { strict: true })).not.toThrow();
  });
  it("decodes to the amount and txid it was given", () => {
    const code = buildBrCode({
      key: "financeiro@provedor.com.br",
      merchantName: "Provedor",
      merchantCity: "Chapecó",
      amount: 1234.5,
      txid: "fat-2026/11#77",
    });
    const f = parseBrCode(code, { strict: true });
    expect(f.get("54")).toBe("1234.50");
    expect(parseTlv(f.get("62") as string).get("05")).toBe("fat20261177");
    expect(parseTlv(f.get("26") as string).get("01")).toBe("financeiro@provedor.com.br");
    expect(f.get("60")).toBe("CHAPECO");
  });
  it("normalises name and city: accents out, truncated then trimmed", () => {
    expect(normalizeMerchantText("Provedor Exemplo Telecom Ltda", 25)).toBe("PROVEDOR EXEMPLO TELECOM");
    expect(safeTxid("")).toBe("***");
    expect(safeTxid("A".repeat(40))).toHaveLength(25);
  });
  it("refuses an empty key", () => expect(() => buildBrCode({ key: " ", merchantName: "x", merchantCity: "y" })).toThrow());
});

describe("CPF / CNPJ check digits", () => {
  it("accepts the worked examples and refuses wrong digits and repeated digits", () => {
    expect(isValidCpf("529.982.247-25")).toBe(true);
    expect(isValidCpf("52998224724")).toBe(false);
    expect(isValidCpf("11111111111")).toBe(false);
    expect(isValidCpf("0000000000")).toBe(false);
    expect(isValidCnpj("12.345.678/0001-95")).toBe(true);
    expect(isValidCnpj("12345678000196")).toBe(false);
    expect(isValidCnpj("00000000000000")).toBe(false);
  });
  it("accepts an alphanumeric CNPJ whose digits follow the char-code rule", () => {
    // 12ABC34501DE: compute the check digits the way the RFB describes, then verify both orders of acceptance
    const base = "12ABC34501DE";
    const val = (c: string) => c.charCodeAt(0) - 48;
    const dv = (s: string, w: number[]) => {
      const r = [...s].reduce((a, c, i) => a + val(c) * w[i], 0) % 11;
      return r < 2 ? 0 : 11 - r;
    };
    const d1 = dv(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
    const d2 = dv(base + d1, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
    expect(isValidCnpj(`${base}${d1}${d2}`)).toBe(true);
    expect(isValidCnpj(`${base}${d1}${(d2 + 1) % 10}`)).toBe(false);
  });
});

describe("PIX key check", () => {
  it("accepts the five key types and refuses a CPF/CNPJ with wrong digits or a phone without +55", () => {
    for (const ok of [
      "52998224725",
      "12345678000195",
      "+5549991234567",
      "financeiro@provedor.com.br",
      "123e4567-e12b-12d1-a456-426655440000",
    ])
      expect(pixKeyProblem(ok)).toBeNull();
    expect(pixKeyProblem("52998224724")).toMatch(/CPF/);
    expect(pixKeyProblem("12345678000196")).toMatch(/CNPJ/);
    expect(pixKeyProblem("49991234567")).toMatch(/CPF/); // a phone without +55 reads as a CPF
    expect(pixKeyProblem("not a key")).toMatch(/inválida/);
  });
});
