/**
 * Brazilian taxpayer numbers: CPF (11 digits) and CNPJ (14 characters; from July 2026 the first
 * 12 may be letters, IN RFB 2.229/2024 — each character counts as its char code minus 48).
 * Check digits only: a valid number may still belong to nobody.
 */

/** Digits (and, for the new CNPJ, upper-case letters) of what the customer typed. */
export function normalizeDocument(raw: string): string {
  return raw.toUpperCase().replace(/[^0-9A-Z]/g, "");
}

/** The digits of a CPF as typed ("529.982.247-25" → "52998224725"). */
export function cpfDigits(value: string): string {
  return value.replace(/\D/g, "");
}

function checkDigit(digits: string, firstWeight: number): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (firstWeight - i);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** A CPF: 11 digits (mask characters allowed), not all equal, both check digits right (mod 11). */
export function isValidCpf(value: string): boolean {
  const d = cpfDigits(value);
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false;
  if (/[^\d.\-\s]/.test(value.trim())) return false;
  const dv1 = checkDigit(d.slice(0, 9), 10);
  const dv2 = checkDigit(d.slice(0, 10), 11);
  return dv1 === Number(d[9]) && dv2 === Number(d[10]);
}

/** The CPF mask as far as the digits go, also while typed: "5299822" → "529.982.2", "52998224725" → "529.982.247-25". */
export function formatCpf(value: string): string {
  return cpfDigits(value)
    .slice(0, 11)
    .replace(/^(\d{3})(\d)/, "$1.$2")
    .replace(/^(\d{3})\.(\d{3})(\d)/, "$1.$2.$3")
    .replace(/\.(\d{3})(\d{1,2})$/, ".$1-$2");
}

/**
 * The CNPJ mask as far as the characters go, also while typed: "12345678" → "12.345.678",
 * "12345678000195" → "12.345.678/0001-95" (letters of the new alphanumeric CNPJ kept, upper-case).
 */
export function formatCnpj(value: string): string {
  const d = normalizeDocument(value).slice(0, 14);
  let out = d.slice(0, 2);
  if (d.length > 2) out += `.${d.slice(2, 5)}`;
  if (d.length > 5) out += `.${d.slice(5, 8)}`;
  if (d.length > 8) out += `/${d.slice(8, 12)}`;
  if (d.length > 12) out += `-${d.slice(12, 14)}`;
  return out;
}

export function isValidCnpj(raw: string): boolean {
  const d = normalizeDocument(raw);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(d) || /^(\d)\1{13}$/.test(d)) return false;
  const value = (c: string) => c.charCodeAt(0) - 48;
  const digit = (len: number) => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    let sum = 0;
    for (let i = 0; i < len; i++) sum += value(d[i]) * weights[i];
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return digit(12) === Number(d[12]) && digit(13) === Number(d[13]);
}

/** "cpf" | "cnpj" for a valid number, null otherwise. */
export function documentKind(raw: string): "cpf" | "cnpj" | null {
  const d = normalizeDocument(raw);
  if (d.length === 11 && isValidCpf(d)) return "cpf";
  if (d.length === 14 && isValidCnpj(d)) return "cnpj";
  return null;
}
