import { fillIncidentVariables, INCIDENT_NO_FORECAST, type IncidentAudience, unknownIncidentVariables } from "@balcao/contract";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { AppError } from "../../lib/errors.js";
import { wallTime } from "../../lib/zoned-time.js";

/**
 * An incident's area (issue 53 item 2): who gets its notice, and its texts' variables.
 *
 * - `audience: "all"` (todos os clientes): every customer who writes. `"area"`: only a customer the
 *   product can place in one of its cities, POPs or tags — by the billing system's contract linked
 *   to the contact (`billing_links.city` / `pop`, as SGP / MK-AUTH said), by the contact's tags, or
 *   by the contact's extra info ("Cidade" / "Município" / "City", "POP"). A customer who cannot be
 *   placed gets no notice (and is not linked) unless the incident is for everyone.
 * - Names compare without case, accents or surrounding spaces ("sao paulo" is "São Paulo").
 */

/** A place name as compared: lower case, no accents, single spaces. */
export const placeKey = (s: string): string => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

/** What places a contact: its cities, POPs and tags (as placeKey). */
export interface ContactPlaces {
  cities: Set<string>;
  pops: Set<string>;
  tags: Set<string>;
}

const CITY_FIELDS = new Set(["cidade", "municipio", "city", "ciudad"]);
const POP_FIELDS = new Set(["pop"]);

/** The contact's places: its billing contracts' cities and POPs, its tags, its extra info's city and POP. */
export async function placesOf(db: DbOrTx, contactId: number): Promise<ContactPlaces> {
  const { rows } = await db.execute<{ kind: string; name: string; value: string }>(sql`
    select 'billing' as kind, city as name, pop as value from billing_links where contact_id = ${contactId}
    union all
    select 'tag', t.name, '' from contact_tags ct join tags t on t.id = ct.tag_id where ct.contact_id = ${contactId}
    union all
    select 'extra', name, value from contact_extra_info where contact_id = ${contactId}`);
  const out: ContactPlaces = { cities: new Set(), pops: new Set(), tags: new Set() };
  const add = (set: Set<string>, v: string) => {
    const k = placeKey(v ?? "");
    if (k) set.add(k);
  };
  for (const r of rows) {
    if (r.kind === "billing") {
      add(out.cities, r.name);
      add(out.pops, r.value);
    } else if (r.kind === "tag") add(out.tags, r.name);
    else if (CITY_FIELDS.has(placeKey(r.name))) add(out.cities, r.value);
    else if (POP_FIELDS.has(placeKey(r.name))) add(out.pops, r.value);
  }
  return out;
}

export interface IncidentArea {
  audience: IncidentAudience;
  cities: string[];
  pops: string[];
  tags: string[];
}

/** Whether the incident's notice is for this contact: everyone, or a customer placed in its area. */
export function inArea(area: IncidentArea, places: ContactPlaces): boolean {
  if (area.audience === "all") return true;
  const hit = (names: string[], set: Set<string>) => names.some((n) => set.has(placeKey(n)));
  return hit(area.cities, places.cities) || hit(area.pops, places.pops) || hit(area.tags, places.tags);
}

/** A jsonb list as stored (a string on some drivers). */
export const listOf = (v: unknown): string[] => {
  const parsed = typeof v === "string" ? JSON.parse(v) : v;
  return Array.isArray(parsed) ? parsed.map(String) : [];
};

/**
 * The area a body asks for, over the incident's current one (an update): an absent audience is
 * "area" when cities, POPs or tags are given, else what it was ("all" for a new incident). An
 * "area" without any of them is refused (ERR_VALIDATION), as are unknown variables in the texts.
 */
export function resolveArea(
  body: { audience?: IncidentAudience; cities?: string[]; pops?: string[]; tags?: string[] },
  current: IncidentArea = { audience: "all", cities: [], pops: [], tags: [] },
): IncidentArea {
  const cities = body.cities ?? current.cities;
  const pops = body.pops ?? current.pops;
  const tags = body.tags ?? current.tags;
  const given = (body.cities?.length ?? 0) + (body.pops?.length ?? 0) + (body.tags?.length ?? 0) > 0;
  const audience = body.audience ?? (given ? "area" : current.audience);
  if (audience === "area" && cities.length + pops.length + tags.length === 0)
    throw new AppError("ERR_VALIDATION", 400, {
      audience: ["An area needs at least one city, POP or tag; choose 'all' (todos os clientes) otherwise"],
    });
  return { audience, cities, pops, tags };
}

/** Refuses texts with variables other than `{previsao}`, `{titulo}`, `{area}` (ERR_VALIDATION naming them). */
export function assertKnownVariables(fields: Record<string, string | undefined>): void {
  const details: Record<string, string[]> = {};
  for (const [field, text] of Object.entries(fields)) {
    if (!text) continue;
    const unknown = unknownIncidentVariables(text);
    if (unknown.length) details[field] = [`Unknown variables: ${unknown.join(", ")} (known: {previsao}, {titulo}, {area})`];
  }
  if (Object.keys(details).length) throw new AppError("ERR_VALIDATION", 400, details);
}

/** `{previsao}`: the expected return as "23/11 às 18:00" in the installation's zone (with the year when not this one's), or "sem previsão". */
export function forecastText(expectedAt: Date | string | null, zone: string, now: number): string {
  if (!expectedAt) return INCIDENT_NO_FORECAST;
  const at = new Date(expectedAt);
  if (Number.isNaN(at.getTime())) return INCIDENT_NO_FORECAST;
  const w = wallTime(at, zone);
  const pad = (n: number) => String(n).padStart(2, "0");
  const year = wallTime(new Date(now), zone).year === w.year ? "" : `/${w.year}`;
  return `${pad(w.day)}/${pad(w.month)}${year} às ${pad(w.hour)}:${pad(w.minute)}`;
}

/** An incident's text with its variables filled. */
export function incidentText(
  text: string,
  incident: { title: string; area: string; expected_at: Date | string | null },
  zone: string,
  now: number,
): string {
  return fillIncidentVariables(text, {
    previsao: forecastText(incident.expected_at, zone, now),
    titulo: incident.title,
    area: incident.area,
  });
}
