import type { BillingConnection, BillingContract, BillingInvoice, UnlockResult } from "@balcao/contract";

/**
 * One interface over the billing systems Brazilian ISPs use most (SGP, MK-AUTH). Contracts are
 * keyed by the system's own id (SGP contratoId, MK-AUTH login); every method may throw a
 * BillingError (http.ts).
 */
export interface BillingSystem {
  readonly name: "SGP" | "MK-AUTH";
  /** contracts of a CPF/CNPJ (digits); [] when none */
  findByDocument(document: string): Promise<BillingContract[]>;
  /** contracts whose registered phone is this number (digits); [] when none or when the system cannot search by phone */
  findByPhone(phone: string): Promise<BillingContract[]>;
  /** open invoices, oldest due date first */
  openInvoices(contract: BillingContract): Promise<BillingInvoice[]>;
  /** the PIX copia-e-cola of one invoice when the system can produce one on request; null otherwise */
  pixFor(contract: BillingContract, invoice: BillingInvoice): Promise<string | null>;
  /** trust unlock (liberação por confiança / desbloqueio) */
  unlock(contract: BillingContract, note: string): Promise<UnlockResult>;
  connection(contract: BillingContract): Promise<BillingConnection>;
  /** opens a support ticket in the billing system; answers its protocol when given */
  openTicket(contract: BillingContract, text: string): Promise<{ protocol: string | null; message: string }>;
  /** a side-effect-free call that proves URL and credentials (settings' 'Testar conexão') */
  test(): Promise<string>;
}

export interface BillingConfig {
  url: string;
  /** SGP: app name; MK-AUTH: Client_Id */
  app: string;
  /** SGP: token; MK-AUTH: Client_Secret */
  token: string;
  /** MK-AUTH: days told to the customer after an unlock */
  unlockDays: number;
  /** the product's zone: an invoice is overdue from the local day after its due date */
  timeZone: string;
}

export const digits = (s: unknown): string => String(s ?? "").replace(/\D/g, "");

/** "110.00", "110,00", 110 → 110 */
export function money(v: unknown): number {
  if (typeof v === "number") return v;
  const s = String(v ?? "").trim();
  if (!s) return 0;
  const n = s.includes(",") ? Number(s.replace(/\./g, "").replace(",", ".")) : Number(s);
  return Number.isFinite(n) ? n : 0;
}

/** "2026-11-10 00:00:00", "10/11/2026", "2026-11-10" → "2026-11-10" ("" when unreadable) */
export function isoDate(v: unknown): string {
  const s = String(v ?? "").trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{2})\/(\d{2})\/(\d{4})/.exec(s);
  if (m) return `${m[3]}-${m[2]}-${m[1]}`;
  return "";
}

export const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v).trim());
export const strOrNull = (v: unknown): string | null => str(v) || null;
