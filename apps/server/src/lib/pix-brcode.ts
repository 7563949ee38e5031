import { isValidCnpj, isValidCpf } from "@balcao/contract";
/**
 * Static PIX BR Code ("copia e cola"), EMV MPM as the Banco Central's BR Code manual lays it out:
 * ID (2 digits) + length (2 digits) + value, templates nested the same way, CRC16-CCITT-FALSE over
 * everything including the literal "6304". Pure: the same input gives the same string.
 * Reference: shared/reference/pix-brcode.md.
 */

export interface BrCodeInput {
  /** the PIX key as DICT stores it: CPF/CNPJ digits, +55… phone, e-mail, or a random key (UUID) */
  key: string;
  merchantName: string;
  merchantCity: string;
  /** in reais; omitted → the payer types the amount */
  amount?: number;
  /** reference label (62-05): [A-Za-z0-9], ≤ 25; "***" when none */
  txid?: string;
  /** optional free text shown to the payer (26-02) */
  description?: string;
}

export function crc16ccittFalse(payload: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(payload)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

function tlv(id: string, value: string): string {
  if (value.length > 99) throw new Error(`BR Code field ${id} longer than 99 characters`);
  return id + String(value.length).padStart(2, "0") + value;
}

/** Basic ASCII, upper case, collapsed spaces, truncated then trimmed (name 25, city 15). */
export function normalizeMerchantText(text: string, max: number): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "")
    .toUpperCase()
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max)
    .trim();
}

/** A txid the QR accepts: [A-Za-z0-9] only, at most 25; "***" when nothing is left. */
export function safeTxid(raw: string | undefined): string {
  const t = (raw ?? "").replace(/[^A-Za-z0-9]/g, "").slice(0, 25);
  return t || "***";
}

export function buildBrCode(input: BrCodeInput): string {
  const key = input.key.trim();
  if (!key) throw new Error("PIX key is empty");
  const description = input.description ? normalizeMerchantText(input.description, 40) : "";
  const account = tlv("00", "br.gov.bcb.pix") + tlv("01", key) + (description ? tlv("02", description) : "");
  const amount = input.amount !== undefined && input.amount > 0 ? tlv("54", (Math.round(input.amount * 100) / 100).toFixed(2)) : "";
  const name = normalizeMerchantText(input.merchantName, 25) || "N";
  const city = normalizeMerchantText(input.merchantCity, 15) || "BRASIL";
  const body =
    tlv("00", "01") +
    tlv("26", account) +
    tlv("52", "0000") +
    tlv("53", "986") +
    amount +
    tlv("58", "BR") +
    tlv("59", name) +
    tlv("60", city) +
    tlv("62", tlv("05", safeTxid(input.txid))) +
    "6304";
  return body + crc16ccittFalse(body);
}

export interface TlvField {
  id: string;
  value: string;
}

/** Reads a BR Code back into its top-level fields; throws on a broken length or a wrong CRC. */
export function parseBrCode(code: string, opts: { strict?: boolean } = {}): Map<string, string> {
  const fields = parseTlv(code);
  const crc = fields.get("63");
  if (!crc || !code.endsWith(crc) || crc16ccittFalse(code.slice(0, -4)) !== crc.toUpperCase()) throw new Error("BR Code CRC mismatch");
  if (opts.strict) {
    if (fields.get("00") !== "01") throw new Error("BR Code: field 00 must be 01");
    const acc = fields.get("26");
    if (!acc || parseTlv(acc).get("00")?.toLowerCase() !== "br.gov.bcb.pix") throw new Error("BR Code: no PIX account (26)");
    const add = fields.get("62");
    if (!add || !parseTlv(add).has("05")) throw new Error("BR Code: no reference label (62-05)");
  }
  return fields;
}

export function parseTlv(s: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < s.length) {
    const id = s.slice(i, i + 2);
    const len = Number(s.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(len) || i + 4 + len > s.length) throw new Error(`BR Code: broken field at ${i}`);
    out.set(id, s.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return out;
}

/**
 * What is wrong with a PIX key as DICT stores it, or null: CPF/CNPJ digits with valid check
 * digits, a phone as +55 with DDD, an e-mail, or a random key (UUID). 11 bare digits are a CPF
 * (a phone needs its +55).
 */
export function pixKeyProblem(key: string): string | null {
  const k = key.trim();
  if (!k) return null;
  if (/^\d{11}$/.test(k)) return isValidCpf(k) ? null : "CPF com dígitos verificadores inválidos (telefone: use +55 e o DDD)";
  if (/^[0-9A-Z]{12}\d{2}$/.test(k)) return isValidCnpj(k) ? null : "CNPJ com dígitos verificadores inválidos";
  if (/^\+55\d{10,11}$/.test(k)) return null;
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(k) && k.length <= 77) return null;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(k)) return null;
  return "Chave PIX inválida: CPF/CNPJ só com números, telefone como +55DDDNÚMERO, e-mail ou chave aleatória";
}
