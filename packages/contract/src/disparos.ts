import { z } from "zod";
import { connectionStatusSchema } from "./entities.js";
import { DEFAULT_DAILY_CAP } from "./health.js";

/**
 * Disparos: bulk messages queued per connection and sent at a safe pace (document 001 §2, §3, §4,
 * §5, §7, §9). The four statuses of the spec, plus `enviando` while a row's message waits in the
 * outbox (taken from the queue, not yet accepted by WhatsApp): shown grey, as the spec's unknown.
 */

export const DISPARO_STATUSES = ["a enviar", "enviando", "enviado", "com erro", "cancelado"] as const;
export const disparoStatusSchema = z.enum(DISPARO_STATUSES);
export type DisparoStatus = z.infer<typeof disparoStatusSchema>;

/** The status filter of the screen (Todos is no filter). */
export const DISPARO_FILTER_STATUSES = ["a enviar", "enviado", "com erro", "cancelado"] as const;

/** §4: cancelado black, a enviar yellow, com erro red, enviado green, anything else grey. */
export const DISPARO_STATUS_COLORS: Record<string, string> = {
  cancelado: "#000000",
  "a enviar": "#f5c518",
  "com erro": "#d32f2f",
  enviado: "#2e7d32",
};
export const DISPARO_UNKNOWN_COLOR = "#9e9e9e";

/** §9: page sizes 10/25/50/100/200, default 50. */
export const DISPARO_PAGE_SIZES = [10, 25, 50, 100, 200] as const;
export const DISPARO_PAGE_SIZE_DEFAULT = 50;

/** Rows one request may create. */
export const DISPARO_MAX_ROWS = 10_000;

/** Safe defaults of a connection's disparo pace (issue 16; see docs/disparos.md). */
export const DISPARO_PACE_DEFAULTS = {
  intervalMinMs: 8_000,
  intervalMaxMs: 15_000,
  pauseEvery: 20,
  pauseMinMs: 180_000,
  pauseMaxMs: 360_000,
  /** the connection's own daily cap (number health: connection_health, reduced by the warm-up); no cap of the disparos' own */
  dailyCap: DEFAULT_DAILY_CAP,
  /** sending hours: off until set; the 'Novo disparo' dialog suggests 08:00–20:00 */
  windowStart: "",
  windowEnd: "",
} as const;
export const DISPARO_SUGGESTED_WINDOW = { start: "08:00", end: "20:00" } as const;

/** After this many failed sends in a row, a connection's disparos pause and admins are told. */
export const DISPARO_FAILURE_BURST = 5;

export const disparoSchema = z.object({
  id: z.number(),
  whatsappId: z.number().nullable(),
  number: z.string(),
  contactId: z.number().nullable(),
  /** the message as written (variables and spintax unrendered) */
  message: z.string(),
  /** the text sent, once rendered (null while waiting) */
  rendered: z.string().nullable(),
  url: z.string(),
  mimetype: z.string(),
  status: disparoStatusSchema,
  /** why it could not be sent, or was cancelled */
  reason: z.string(),
  /** when it may go (the start time chosen; the creation time otherwise) */
  datetime: z.string(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Disparo = z.infer<typeof disparoSchema>;

const dayBound = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?$/, "Invalid date");

export const disparosQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(DISPARO_PAGE_SIZE_DEFAULT)
    .transform((n) => Math.min(n, 200)),
  page: z.coerce.number().int().min(1).default(1),
  status: z.union([z.literal(""), disparoStatusSchema]).optional(),
  /** "YYYY-MM-DDT00:00:00" as the screen sends it (§5), in the product's time zone */
  from: z.union([z.literal(""), dayBound]).optional(),
  to: z.union([z.literal(""), dayBound]).optional(),
  whatsappId: z.coerce.number().int().positive().optional(),
});
export type DisparosQuery = z.input<typeof disparosQuery>;

export const disparosAnswer = z.object({ rows: z.array(disparoSchema), page: z.number(), totalPages: z.number() });
export type DisparosAnswer = z.infer<typeof disparosAnswer>;

/** GET /disparos/stats: the spec's four keys, plus `enviando` (in the outbox, not sent yet). */
export const disparoStatsSchema = z.object({
  cancelado: z.number(),
  "a enviar": z.number(),
  "com erro": z.number(),
  enviado: z.number(),
  enviando: z.number(),
});
export type DisparoStats = z.infer<typeof disparoStatsSchema>;

const MAX_MESSAGE = 4096;

export const disparoRowInput = z.object({
  number: z.string().trim().min(1, "Required").max(50, "Too Long!"),
  /** the recipient's name for {nome} and {primeiro_nome} (else the contact's, when known) */
  name: z.string().trim().max(200, "Too Long!").optional(),
  message: z.string().max(MAX_MESSAGE, "Too Long!").default(""),
  url: z.string().trim().max(2000, "Too Long!").optional(),
  mimetype: z.string().trim().max(200, "Too Long!").optional(),
});
export type DisparoRowInput = z.input<typeof disparoRowInput>;

/** When to start: an ISO instant or a local "YYYY-MM-DDTHH:mm" in the product's time zone. */
const startAt = z.string().trim().max(40).optional();

/**
 * POST /disparos (JSON): `rows`, or every contact of the tags with one message. POST /api/disparos
 * takes the same without `whatsappId` (the token names the connection).
 */
export const disparoCreateBody = z
  .object({
    whatsappId: z.number().int().positive(),
    rows: z.array(disparoRowInput).max(DISPARO_MAX_ROWS, `At most ${DISPARO_MAX_ROWS} rows`).optional(),
    tagIds: z.array(z.number().int().positive()).max(50).optional(),
    message: z.string().max(MAX_MESSAGE, "Too Long!").optional(),
    url: z.string().trim().max(2000).optional(),
    mimetype: z.string().trim().max(200).optional(),
    startAt,
    /** true: invalid rows are left out (counted in `skipped`) and the valid ones queued; else one invalid row refuses the request */
    skipInvalid: z.boolean().optional(),
  })
  .refine((v) => (v.rows?.length ?? 0) > 0 || (v.tagIds?.length ?? 0) > 0, { message: "Required", path: ["rows"] });
export type DisparoCreateBody = z.input<typeof disparoCreateBody>;
export const apiDisparoCreateBody = z.object({
  rows: z.array(disparoRowInput).min(1, "Required").max(DISPARO_MAX_ROWS, `At most ${DISPARO_MAX_ROWS} rows`),
  startAt,
  skipInvalid: z.boolean().optional(),
});
export const disparoCreateAnswer = z.object({
  created: z.number(),
  cancelled: z.number(),
  /** invalid rows left out (only with `skipInvalid: true`) */
  skipped: z.number().optional(),
});

/**
 * The invalid rows of a refused POST /disparos: 400 ERR_VALIDATION whose `fields` name each one,
 * `<label>.<field>` → [reason], labels as in `DisparoCsvRow` ("line.4": the CSV's line 4; "rows.3":
 * the JSON's fourth row; "contacts.2": a tag's third contact). At most this many rows are named;
 * more add `rows: ["N invalid rows"]`.
 */
export const DISPARO_INVALID_LISTED = 500;

/** One invalid row as the dialog lists it, read from a 400's `fields`. */
export interface DisparoInvalidRow {
  /** the CSV line (1-based, as a spreadsheet shows it) or the JSON row (1-based) */
  line: number;
  kind: "line" | "rows" | "contacts";
  field: string;
  reason: string;
}

/** The rows named by a refused POST /disparos's `fields` (other keys ignored), in line order. */
export function disparoInvalidRows(fields: Record<string, string[]> | undefined): DisparoInvalidRow[] {
  const out: DisparoInvalidRow[] = [];
  for (const [key, reasons] of Object.entries(fields ?? {})) {
    const m = /^(line|rows|contacts)\.(\d+)\.(\w+)$/.exec(key);
    if (!m) continue;
    const n = Number(m[2]);
    out.push({ kind: m[1] as DisparoInvalidRow["kind"], line: m[1] === "line" ? n : n + 1, field: m[3], reason: reasons[0] ?? "" });
  }
  return out.sort((a, b) => a.line - b.line);
}
export type DisparoCreateAnswer = z.infer<typeof disparoCreateAnswer>;

export const disparoBulkAnswer = z.object({ changed: z.number() });

const hhmm = z.union([z.literal(""), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "HH:MM")]);

/** A connection's disparo pace and state (GET /disparos/connections). */
export const disparoConnectionSchema = z.object({
  whatsappId: z.number(),
  name: z.string(),
  connectionStatus: connectionStatusSchema,
  intervalMinMs: z.number(),
  intervalMaxMs: z.number(),
  pauseEvery: z.number(),
  pauseMinMs: z.number(),
  pauseMaxMs: z.number(),
  /**
   * today's cap of the connection's unsolicited sends: the connection's daily cap (PUT /whatsapp
   * `dailyCap`), reduced by the warm-up while it lasts — the same figure as the health panel's
   */
  dailyCap: z.number(),
  /** the connection's daily cap once warmed up */
  fullDailyCap: z.number(),
  /** the warm-up's day (1 = the pairing day) while it lasts, else null */
  warmupDay: z.number().nullable(),
  windowStart: z.string(),
  windowEnd: z.string(),
  paused: z.boolean(),
  /** "manual" (Pausar) or "falhas" (a burst of failed sends) */
  pausedReason: z.string(),
  sentToday: z.number(),
  /** waiting rows of the connection ('a enviar') and in the outbox ('enviando') */
  pending: z.number(),
  sending: z.number(),
  /** why nothing goes now: "" (sending), "desconectado", "pausado", "fora do horário", "limite diário" */
  waiting: z.string(),
  /** when the next row may go, and when the waiting rows should be done at the current pace */
  nextAt: z.string().nullable(),
  expectedFinishAt: z.string().nullable(),
});
export type DisparoConnection = z.infer<typeof disparoConnectionSchema>;

export const disparoConnectionUpdateBody = z
  .object({
    intervalMinMs: z.number().int().min(0).max(3_600_000),
    intervalMaxMs: z.number().int().min(0).max(3_600_000),
    pauseEvery: z.number().int().min(0).max(10_000),
    pauseMinMs: z.number().int().min(0).max(86_400_000),
    pauseMaxMs: z.number().int().min(0).max(86_400_000),
    /** the connection's daily cap (one setting: the same as PUT /whatsapp `dailyCap`) */
    dailyCap: z.number().int().min(1).max(100_000),
    windowStart: hhmm,
    windowEnd: hhmm,
    paused: z.boolean(),
  })
  .partial();
export type DisparoConnectionUpdateBody = z.input<typeof disparoConnectionUpdateBody>;

export const disparoOptOutSchema = z.object({
  contactId: z.number(),
  name: z.string(),
  number: z.string().nullable(),
  createdAt: z.string(),
});
export type DisparoOptOut = z.infer<typeof disparoOptOutSchema>;

/** The `disparos:update` socket event (admins): what changed and the counts now. */
export interface DisparosUpdate {
  action: "create" | "update" | "delete" | "settings";
  stats: DisparoStats;
  /** a connection's disparos were paused by a burst of failed sends */
  alert?: { whatsappId: number; reason: "falhas" };
}

// ---------- a CSV's rows: the same columns on the server and in the dialog's preview ----------

/** Column titles a CSV may use (case ignored); without any of them the columns are number, message, url. */
export const DISPARO_CSV_COLUMNS = {
  number: ["number", "numero", "número", "telefone", "phone", "whatsapp", "celular"],
  message: ["message", "mensagem", "msg", "texto"],
  url: ["url", "link", "midia", "mídia", "media"],
  name: ["nome", "name", "cliente", "contato"],
} as const;

/** The variables a disparo's text may use: what each becomes for a recipient. */
export const DISPARO_VARIABLES = ["{nome}", "{primeiro_nome}"] as const;

export interface DisparoCsvRow {
  /** names the row in a 400: "line.4" is the spreadsheet's line 4 */
  label: string;
  number: string;
  message: string;
  url: string;
  name: string;
}

/**
 * A CSV table's rows: titled columns in any order (Portuguese or English: numero, mensagem, url,
 * nome), or without titles number,message,url; a row without a message takes `defaultMessage` (the
 * dialog's).
 */
export function disparoRowsFromCsv(table: string[][], defaultMessage = ""): DisparoCsvRow[] {
  if (table.length === 0) return [];
  const head = table[0].map((h) => h.trim().toLowerCase());
  const find = (names: readonly string[]) => head.findIndex((h) => names.includes(h));
  const hasHeader = Object.values(DISPARO_CSV_COLUMNS).some((names) => find(names) !== -1);
  // with titles, a column not named is absent (the number alone is looked for first in its place);
  // without, the columns are number, message, url (a name is never guessed)
  const col = (key: keyof typeof DISPARO_CSV_COLUMNS, place: number) => (hasHeader ? find(DISPARO_CSV_COLUMNS[key]) : place);
  const found = col("number", 0);
  const ni = found === -1 ? 0 : found;
  const mi = col("message", 1);
  const ui = col("url", 2);
  const nai = col("name", -1);
  const body = hasHeader ? table.slice(1) : table;
  const first = hasHeader ? 2 : 1;
  return body.map((r, i) => ({
    label: `line.${i + first}`,
    number: r[ni] ?? "",
    message: ((mi === -1 ? "" : r[mi]) ?? "").trim() || defaultMessage,
    url: (ui === -1 ? "" : r[ui]) ?? "",
    name: ((nai === -1 ? "" : r[nai]) ?? "").trim(),
  }));
}

// ---------- rendering: variables and spintax, the same on the server and in the dialog's preview ----------

/** A small seeded generator (mulberry32): a row's id picks the same variants every time it is rendered. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPIN = /\{([^{}]*\|[^{}]*)\}/;

/**
 * A disparo's text: `{nome}` and `{primeiro_nome}` from the contact (empty when unknown), then
 * every spintax group `{Olá|Oi|Bom dia}` (innermost first, so groups may nest) replaced by one
 * variant chosen by the seed. Other braces are kept as written.
 */
export function renderDisparo(template: string, contact: { name?: string | null } | null | undefined, seed: number): string {
  const name = (contact?.name ?? "").trim();
  const first = name.split(/\s+/)[0] ?? "";
  let text = template.replace(/\{\s*(nome|primeiro_nome)\s*\}/gi, (_m, v: string) => (v.toLowerCase() === "nome" ? name : first));
  const random = seededRandom(seed);
  for (let guard = 0; guard < 1000; guard++) {
    const m = SPIN.exec(text);
    if (!m) break;
    const options = m[1].split("|");
    const pick = options[Math.min(options.length - 1, Math.floor(random() * options.length))];
    text = text.slice(0, m.index) + pick + text.slice(m.index + m[0].length);
  }
  // a missing name leaves no gap: "Olá {nome}, tudo bem?" → "Olá, tudo bem?"
  return text
    .replace(/[ \t]{2,}/g, " ")
    .replace(/[ \t]+([,.!?;:])/g, "$1")
    .trim();
}
