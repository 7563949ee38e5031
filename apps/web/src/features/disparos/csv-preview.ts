import { DISPARO_CSV_COLUMNS, type DisparoCsvRow, disparoRowsFromCsv, parseCsv, renderDisparo } from "@balcao/contract";

/** How many rows of a chosen CSV the 'Novo disparo' dialog shows rendered. */
export const CSV_PREVIEW_ROWS = 3;

export interface CsvPreview {
  /** rows in the file (after the title line) */
  total: number;
  /** whether a titled `nome` column fills {nome} */
  hasNames: boolean;
  /** the first rows, each with the text its customer would read */
  rows: (DisparoCsvRow & { text: string })[];
}

/** A spreadsheet's bytes as text: UTF-8, else Windows-1252 (what Excel saves in Brazil), without a BOM. */
export function decodeCsv(bytes: ArrayBuffer): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("windows-1252").decode(bytes);
  }
  return text.replace(/^\uFEFF/, "");
}

/**
 * The first rows of a CSV as the server will read them (the contract's columns) and render them:
 * the row's message or the dialog's, with the row's name as {nome}. Spintax picks one variant per row.
 */
export function previewCsv(text: string, defaultMessage: string, limit = CSV_PREVIEW_ROWS): CsvPreview {
  const table = parseCsv(text);
  const rows = disparoRowsFromCsv(table, defaultMessage);
  const head = (table[0] ?? []).map((h) => h.trim().toLowerCase());
  const hasNames = rows.some((r) => r.name) || head.some((h) => (DISPARO_CSV_COLUMNS.name as readonly string[]).includes(h));
  return {
    total: rows.length,
    hasNames,
    rows: rows.slice(0, limit).map((r, i) => ({ ...r, text: renderDisparo(r.message, { name: r.name }, i + 1) })),
  };
}
