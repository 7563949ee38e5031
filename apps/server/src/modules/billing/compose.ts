import type { BillingContract, BillingInvoice } from "@balcao/contract";
import type { DbOrTx } from "../../db/client.js";
import { buildBrCode } from "../../lib/pix-brcode.js";
import { getSettingValues } from "../settings/service.js";
import type { Billing } from "./registry.js";

/** What the bot or the panel sends the customer: texts, and PNG images (the PIX QR). */
export type Reply = { kind: "text"; body: string } | { kind: "image"; png: Buffer; caption: string };

export interface PixSettings {
  key: string;
  merchantName: string;
  merchantCity: string;
}

export async function pixSettings(db: DbOrTx): Promise<PixSettings> {
  const s = await getSettingValues(db, ["pixKey", "pixMerchantName", "pixMerchantCity"]);
  return { key: s.pixKey.trim(), merchantName: s.pixMerchantName, merchantCity: s.pixMerchantCity };
}

/** {name} → vars.name; unknown placeholders stay as written. */
export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}

export const brl = (n: number) => n.toLocaleString("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const brDate = (iso: string) => (/^\d{4}-\d{2}-\d{2}$/.test(iso) ? iso.split("-").reverse().join("/") : iso);

/**
 * The PIX copia-e-cola of an invoice: the billing system's (reconciled by it) first; else a static
 * BR Code from the provider's key (amount and the invoice as txid); null when neither exists.
 */
export async function pixCodeOf(
  billing: Billing,
  pix: PixSettings,
  contract: BillingContract,
  invoice: BillingInvoice,
): Promise<string | null> {
  const given = invoice.pixCode ?? (await billing.pixFor(contract, invoice).catch(() => null));
  if (given) return given;
  if (!pix.key) return null;
  return buildBrCode({
    key: pix.key,
    merchantName: pix.merchantName || "PROVEDOR",
    merchantCity: pix.merchantCity || "BRASIL",
    amount: invoice.amount,
    txid: invoice.id,
  });
}

export async function qrPng(code: string): Promise<Buffer> {
  const { default: QRCode } = await import("qrcode");
  return QRCode.toBuffer(code, { type: "png", margin: 2, width: 360, errorCorrectionLevel: "M" });
}

/** One invoice as messages: the bill (due, amount, linha digitável, PDF), the PIX code alone (to copy), its QR. */
export async function invoiceReplies(
  billing: Billing,
  pix: PixSettings,
  contract: BillingContract,
  invoice: BillingInvoice,
  template: string,
  opts: { bill?: boolean; pix?: boolean } = { bill: true, pix: true },
): Promise<Reply[]> {
  const out: Reply[] = [];
  if (opts.bill !== false) {
    const lines = [fill(template, { due: brDate(invoice.dueDate), amount: brl(invoice.amount), name: contract.customerName })];
    if (invoice.digitableLine) lines.push(`Linha digitável: ${invoice.digitableLine}`);
    if (invoice.pdfUrl) lines.push(`Boleto (PDF): ${invoice.pdfUrl}`);
    out.push({ kind: "text", body: lines.join("\n") });
  }
  if (opts.pix !== false) {
    const code = await pixCodeOf(billing, pix, contract, invoice);
    if (code) {
      out.push({ kind: "text", body: code });
      out.push({ kind: "image", png: await qrPng(code), caption: `PIX R$ ${brl(invoice.amount)} — vencimento ${brDate(invoice.dueDate)}` });
    }
  }
  return out;
}
