import { DISPARO_INVALID_LISTED, DISPARO_MAX_ROWS, normalizeNumber } from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { AppError } from "../../lib/errors.js";
import { MEDIA_KEY, type StoredMedia } from "../../lib/media.js";
import { parseLocalDateTime } from "../../lib/zoned-time.js";
import type { ConvDeps } from "../outbox/deps.js";
import { timeZoneOf } from "../settings/service.js";

/** The rows of a request (JSON rows, a CSV, contacts by tag) read and checked before anything is stored. */

export interface RowInput {
  number: string;
  /** the recipient's name ({nome}): a CSV's `nome` column, a JSON row's `name` */
  name?: string;
  message: string;
  url?: string;
  mimetype?: string;
}

/** A row checked and normalised; `label` names it in a 400 ("rows.3" or "line.4"). */
export interface CheckedRow {
  number: string;
  name: string;
  message: string;
  url: string;
  mimetype: string;
  mediaKey: string | null;
}

const NUMBER_CHARS = /^[\d\s()+\-.]+$/;
const OUR_MEDIA = /^(?:https?:\/\/[^/]+)?\/media\/([a-f0-9]{32}\.[a-z0-9]{1,8})$/;

/** The rows kept, and how many invalid ones were left out (`skipInvalid`). */
export interface RowsChecked {
  rows: CheckedRow[];
  skipped: number;
}

/**
 * Every row normalised (digits with country code 55 by default) and checked. Invalid rows refuse the
 * whole request with a 400 naming each of them (`<label>.<field>`, up to DISPARO_INVALID_LISTED),
 * before anything is stored; with `skipInvalid` they are left out and counted instead (a request
 * whose rows are all invalid is still refused). A URL of our own media (/media/<key>) is sent as
 * that file; any other URL goes as a link after the text.
 */
export async function checkRows(
  conv: ConvDeps,
  rows: (RowInput & { label: string })[],
  /** the file sent with every row (or `true`: one will be, the rows are only checked) */
  media?: StoredMedia | true,
  opts: { skipInvalid?: boolean } = {},
): Promise<RowsChecked> {
  if (rows.length === 0) throw new AppError("ERR_VALIDATION", 400, { rows: ["Required"] });
  if (rows.length > DISPARO_MAX_ROWS) throw new AppError("ERR_VALIDATION", 400, { rows: [`At most ${DISPARO_MAX_ROWS} rows`] });
  const known = new Map<string, boolean>();
  const out: CheckedRow[] = [];
  const invalid: Record<string, string[]> = {};
  let invalidCount = 0;
  for (const r of rows) {
    const checked = await checkRow(conv, r, media, known);
    if ("reason" in checked) {
      invalidCount++;
      if (invalidCount <= DISPARO_INVALID_LISTED) invalid[`${r.label}.${checked.field}`] = [checked.reason];
    } else out.push(checked);
  }
  if (invalidCount && (!opts.skipInvalid || out.length === 0)) {
    if (invalidCount > DISPARO_INVALID_LISTED) invalid.rows = [`${invalidCount} invalid rows`];
    throw new AppError("ERR_VALIDATION", 400, invalid);
  }
  return { rows: out, skipped: invalidCount };
}

/** One row checked: the row as stored, or what is wrong with it. */
async function checkRow(
  conv: ConvDeps,
  r: RowInput & { label: string },
  media: StoredMedia | true | undefined,
  known: Map<string, boolean>,
): Promise<CheckedRow | { field: string; reason: string }> {
  const bad = (field: string, reason: string) => ({ field, reason });
  const raw = r.number.trim();
  if (!raw) return bad("number", "Required");
  if (!NUMBER_CHARS.test(raw)) return bad("number", "Invalid number");
  const number = normalizeNumber(raw);
  if (number.length < 10 || number.length > 15) return bad("number", "Invalid number");
  const url = (r.url ?? "").trim();
  if (url && !/^(https?:\/\/|\/)/i.test(url)) return bad("url", "Invalid URL");
  const file = media === true ? { key: "pending", mimetype: "" } : media;
  let mediaKey: string | null = file?.key ?? null;
  let mimetype = file?.mimetype || (r.mimetype ?? "").trim();
  const own = OUR_MEDIA.exec(url);
  if (!media && own) {
    const key = own[1];
    if (!known.has(key)) known.set(key, MEDIA_KEY.test(key) && (await conv.media.exists(key)));
    if (!known.get(key)) return bad("url", "Media not found");
    mediaKey = key;
    mimetype ||= mimeOfKey(key);
  }
  const message = r.message.trim();
  if (!message && !mediaKey && !url) return bad("message", "Required");
  return {
    number,
    name: (r.name ?? "").trim().slice(0, 200),
    message,
    url: file ? url || `/media/${file.key}` : url,
    mimetype,
    mediaKey,
  };
}

export function mimeOfKey(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1);
  const map: Record<string, string> = {
    jpg: "image/jpeg",
    png: "image/png",
    gif: "image/gif",
    webp: "image/webp",
    mp4: "video/mp4",
    pdf: "application/pdf",
    mp3: "audio/mpeg",
    ogg: "audio/ogg",
  };
  return map[ext] ?? "application/octet-stream";
}

/** Contacts with a number under any of the tags, as rows of one message. */
export async function rowsFromTags(db: DbOrTx, tagIds: number[], message: string, url?: string, mimetype?: string) {
  const ids = sql.join(
    tagIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const { rows } = await db.execute<{ number: string }>(sql`
    select distinct c.number from contacts c join contact_tags ct on ct.contact_id = c.id
    where ct.tag_id in (${ids}) and c.number is not null and not c.is_group
    order by c.number limit ${DISPARO_MAX_ROWS + 1}`);
  if (!rows.length) throw new AppError("ERR_VALIDATION", 400, { tagIds: ["No contacts with a number"] });
  return rows.map((r, i) => ({ label: `contacts.${i}`, number: r.number, message, url, mimetype }));
}

/** Parses the start time: an ISO instant or a local date-time in the product's zone. */
export async function startOf(db: DbOrTx, value: string | undefined): Promise<Date | undefined> {
  if (!value) return undefined;
  const at = parseLocalDateTime(value, await timeZoneOf(db));
  if (!at) throw new AppError("ERR_VALIDATION", 400, { startAt: ["Invalid date"] });
  return at;
}
