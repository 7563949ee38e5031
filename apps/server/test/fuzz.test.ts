import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createQueue, customerSays, pairedSimulator } from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/**
 * Issue 12: a fuzz pass over every route of the OpenAPI document, as an admin (the deepest code
 * paths): wrong types, NULs, huge and malformed ids, long strings, empty and odd bodies, in paths,
 * query strings and bodies. Every answer is 2xx or 4xx, never 5xx; a refused call leaves the data
 * exactly as it was (nothing half-written); the process is alive at the end.
 */

type Op = {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
};

let t: TestApp;
let routes: { method: string; path: string; op: Op }[];

beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT: String(512 * 1024) });
  const queue = await createQueue(t, "Fuzz");
  const sim = await pairedSimulator(t, { queueIds: [queue], isDefault: true });
  await customerSays(t, sim, "5511911110001", "oi");
  const doc = (await t.app.inject({ method: "GET", url: "/api-docs/json" })).json() as { paths: Record<string, Record<string, Op>> };
  routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
});
afterAll(() => t.teardown());

const LONG = "x".repeat(100_000);
/** Values for a path or query parameter (as text). */
const TEXT_VARIANTS = [
  "0",
  "-1",
  "1.5",
  "2147483648",
  "1e308",
  "99999999999999999999999",
  "abc",
  "\u0000",
  "1\u00001",
  "x".repeat(300),
  "",
  "[1,",
  "true",
];
/** Values for a body property. */
const VALUE_VARIANTS: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2147483648,
  1e308,
  "",
  "a\u0000b",
  "\u0000\u0001\u001f",
  LONG,
  "2147483648",
  [],
  [2147483648],
  ["a\u0000"],
  {},
  { id: 2147483648 },
];
/** Whole bodies, raw. */
const RAW_BODIES = [
  "",
  "null",
  "[]",
  '"texto"',
  "{}",
  "0",
  '{"__proto__":{"admin":true}}',
  "{",
  "\u0000",
  `{"a":"${"y".repeat(600 * 1024)}"}`,
];

/** Rows of every table, the columns requests write (not those background sessions and acks move). */
const FINGERPRINT = sql`select md5(string_agg(x, '|' order by x)) as fp from (
  select 'u' || md5(coalesce(string_agg(concat_ws(',', id, name, email, profile, password_hash, token_version), ';' order by id), '')) as x from users
  union all select 'uq' || md5(coalesce(string_agg(concat_ws(',', user_id, queue_id), ';' order by user_id, queue_id), '')) from user_queues
  union all select 'q' || md5(coalesce(string_agg(concat_ws(',', id, name, color, greeting_message), ';' order by id), '')) from queues
  union all select 'c' || md5(coalesce(string_agg(concat_ws(',', id, name, number, email), ';' order by id), '')) from contacts
  union all select 'ce' || md5(coalesce(string_agg(concat_ws(',', id, contact_id, name, value), ';' order by id), '')) from contact_extra_info
  union all select 'ct' || md5(coalesce(string_agg(concat_ws(',', contact_id, tag_id), ';' order by contact_id, tag_id), '')) from contact_tags
  union all select 'g' || md5(coalesce(string_agg(concat_ws(',', id, name, color), ';' order by id), '')) from tags
  union all select 't' || md5(coalesce(string_agg(concat_ws(',', id, status, user_id, queue_id, contact_id, whatsapp_id, transf), ';' order by id), '')) from tickets
  union all select 'tt' || md5(coalesce(string_agg(concat_ws(',', ticket_id, tag_id), ';' order by ticket_id, tag_id), '')) from ticket_tags
  union all select 'm' || md5(coalesce(string_agg(concat_ws(',', id, body, ticket_id, is_deleted), ';' order by id), '')) from messages
  union all select 'qa' || md5(coalesce(string_agg(concat_ws(',', id, shortcut, message), ';' order by id), '')) from quick_answers
  union all select 's' || md5(coalesce(string_agg(concat_ws(',', key, value), ';' order by key), '')) from settings
  union all select 'w' || md5(coalesce(string_agg(concat_ws(',', id, name, token, is_default, greeting_message, farewell_message, typebot_api_key), ';' order by id), '')) from whatsapps
  union all select 'wq' || md5(coalesce(string_agg(concat_ws(',', whatsapp_id, queue_id), ';' order by whatsapp_id, queue_id), '')) from whatsapp_queues
  union all select 'a' || md5(coalesce(string_agg(concat_ws(',', id, entity_id, old_value, new_value), ';' order by id), '')) from audit_log
) f`;

async function fingerprint(): Promise<string> {
  const res = await t.ctx.db.execute<{ fp: string }>(FINGERPRINT);
  return res.rows[0].fp;
}

type Case = { method: string; url: string; body?: string; label: string };

function casesOf(route: { method: string; path: string; op: Op }): Case[] {
  const { method, path, op } = route;
  const params = (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
  const query = (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
  const props = Object.keys(op.requestBody?.content?.["application/json"]?.schema?.properties ?? {});
  const baseUrl = (vals: Record<string, string> = {}) => path.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(vals[n] ?? "1"));
  const out: Case[] = [];
  // every path parameter malformed (the others a plain 1)
  for (const p of params)
    for (const v of TEXT_VARIANTS) out.push({ method, url: baseUrl({ [p]: v }), label: `path ${p}=${JSON.stringify(v).slice(0, 20)}` });
  // GET/DELETE with a valid-looking path go no further than their query strings: deleting id 1 is not fuzzing
  for (const q of query)
    for (const v of TEXT_VARIANTS) out.push({ method, url: `${baseUrl()}?${q}=${encodeURIComponent(v)}`, label: `query ${q}` });
  if (method === "POST" || method === "PUT") {
    for (const prop of props) {
      for (const v of VALUE_VARIANTS)
        out.push({ method, url: baseUrl({ id: "999999" }), body: JSON.stringify({ [prop]: v }), label: `body ${prop}` });
    }
    for (const raw of RAW_BODIES) out.push({ method, url: baseUrl({ id: "999999" }), body: raw, label: `raw body ${raw.slice(0, 12)}` });
  }
  return out;
}

describe("fuzz", () => {
  it("every route answers 2xx or 4xx to bad input, refusals write nothing, the process lives on", { timeout: 600_000 }, async () => {
    const failures: string[] = [];
    let count = 0;
    for (const route of routes) {
      // logging out would end the admin's session: it is fuzzed with a throwaway user's
      const fuzzUser = route.path === "/auth/logout" ? await t.createUser({}) : undefined;
      // the data as it stands before this route's cases (a 2xx case may change it legitimately)
      let current = await fingerprint();
      for (const c of casesOf(route)) {
        const token = fuzzUser ? fuzzUser.token : t.adminToken;
        const res = await t.app.inject({
          method: c.method as "GET",
          url: c.url,
          headers: { ...bearer(token), ...(c.body !== undefined && { "content-type": "application/json" }) },
          ...(c.body !== undefined && { payload: c.body }),
        });
        count++;
        const tag = `${c.method} ${route.path} (${c.label})`;
        if (res.statusCode >= 500) failures.push(`${tag}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        const after = await fingerprint();
        if (res.statusCode >= 400 && after !== current) failures.push(`${tag}: answered ${res.statusCode} but changed data`);
        current = after;
      }
    }
    console.log(`fuzz: ${count} cases over ${routes.length} routes, ${failures.length} failures`);
    expect(failures).toEqual([]);
    const health = await t.app.inject({ method: "GET", url: "/health" });
    expect(health.statusCode).toBe(200);
    expect((await api(t, t.adminToken, "GET", "/queue")).status).toBe(200);
  });
});
