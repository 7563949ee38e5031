import { CONTACTS_COUNT_CAP } from "@balcao/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/**
 * Issue 31: GET /contacts answers `{ contacts, count, hasMore }` (what the original client reads)
 * without counting every match on each keystroke: `hasMore` comes from one row past the page,
 * `count` is exact below CONTACTS_COUNT_CAP and equals the cap ("that many or more") above it.
 */
let t: TestApp;
const MANY = CONTACTS_COUNT_CAP + 105;

beforeAll(async () => {
  t = await createTestApp();
  // MANY "Pereira" contacts, half with an e-mail at provedor.net.br, and a few to tell apart
  await t.ctx.db.execute(sql`insert into contacts (name, number, email)
    select 'Cliente Pereira ' || lpad(g::text, 5, '0'), '5541' || lpad(g::text, 9, '0'),
           case when g % 2 = 0 then 'pereira' || g || '@provedor.net.br' else '' end
    from generate_series(1, ${MANY}) g`);
  await t.ctx.db.execute(sql`insert into contacts (name, number, email) values
    ('João Conceição', '5511987650001', 'joao@Exemplo.COM'),
    ('Maria Souza', '5511987650002', 'msouza@exemplo.com'),
    ('Zeca Souza', '5511987650003', '')`);
});
afterAll(() => t.teardown());

async function search(query: string) {
  const res = await t.app.inject({ method: "GET", url: `/contacts?${query}`, headers: bearer(t.adminToken) });
  expect(res.statusCode).toBe(200);
  return res.json() as { contacts: { name: string; number: string; email: string }[]; count: number; hasMore: boolean };
}

describe("contact search", () => {
  it("caps the count of a broad search and tells a next page by one extra row", async () => {
    const first = await search("searchParam=pereira&pageNumber=1&rowsPerPage=100");
    expect(first.count).toBe(CONTACTS_COUNT_CAP);
    expect(first.hasMore).toBe(true);
    expect(first.contacts).toHaveLength(100);
    expect(first.contacts[0].name).toBe("Cliente Pereira 00001");
    expect(first.contacts[99].name).toBe("Cliente Pereira 00100");
    // a page as long as the cap: it and the row after it exist, so "at least" one more than the cap
    const long = await search("searchParam=pereira&pageNumber=1&rowsPerPage=200");
    expect(long).toMatchObject({ count: CONTACTS_COUNT_CAP + 1, hasMore: true });
  });

  it("gives the exact total on the last page, past the cap", async () => {
    const lastPage = Math.ceil(MANY / 200);
    const last = await search(`searchParam=pereira&pageNumber=${lastPage}&rowsPerPage=200`);
    expect(last.hasMore).toBe(false);
    expect(last.contacts).toHaveLength(MANY - (lastPage - 1) * 200);
    expect(last.count).toBe(MANY);
    expect(last.contacts.at(-1)?.name).toBe(`Cliente Pereira ${String(MANY).padStart(5, "0")}`);
  });

  it("counts exactly below the cap, on every page", async () => {
    // Maria by name and e-mail, Zeca by name
    const page1 = await search("searchParam=souza&rowsPerPage=1");
    expect(page1).toMatchObject({ count: 2, hasMore: true });
    expect(page1.contacts.map((c) => c.name)).toEqual(["Maria Souza"]);
    const page2 = await search("searchParam=souza&rowsPerPage=1&pageNumber=2");
    expect(page2).toMatchObject({ count: 2, hasMore: false });
    expect(page2.contacts.map((c) => c.name)).toEqual(["Zeca Souza"]);
    const past = await search("searchParam=souza&rowsPerPage=1&pageNumber=5");
    expect(past).toMatchObject({ contacts: [], count: 2, hasMore: false });
  });

  it("finds by e-mail and by the digits of a number, whatever the case or mask", async () => {
    const byMail = await search("searchParam=EXEMPLO.com");
    expect(byMail.contacts.map((c) => c.name)).toEqual(["João Conceição", "Maria Souza"]);
    expect(byMail).toMatchObject({ count: 2, hasMore: false });
    const byMailMany = await search("searchParam=provedor.net&rowsPerPage=10");
    expect(byMailMany).toMatchObject({ count: Math.floor(MANY / 2), hasMore: true });
    expect(byMailMany.contacts[0].email).toBe("pereira2@provedor.net.br");
    const byNumber = await search(`searchParam=${encodeURIComponent("(11) 98765-0003")}`);
    expect(byNumber.contacts.map((c) => c.name)).toEqual(["Zeca Souza"]);
  });

  it("matches the name without regard to case, accents as typed", async () => {
    expect((await search("searchParam=JO%C3%83O")).contacts.map((c) => c.name)).toEqual(["João Conceição"]);
    expect((await search("searchParam=concei%C3%A7%C3%A3o")).contacts.map((c) => c.name)).toEqual(["João Conceição"]);
    expect((await search("searchParam=zz-nada")).contacts).toEqual([]);
  });

  it("a term of one or two characters (no trigram) finds the same as a longer one would: name, e-mail, digits, wildcards literally", async () => {
    // "ç" and "ã" are two characters each in "çã": João Conceição only
    expect((await search(`searchParam=${encodeURIComponent("ÇÃ")}`)).contacts.map((c) => c.name)).toEqual(["João Conceição"]);
    // "so" is in Souza (two names) and in msouza@ (already counted): two contacts, in name order
    const so = await search("searchParam=so");
    expect(so.contacts.map((c) => c.name)).toEqual(["Maria Souza", "Zeca Souza"]);
    expect(so).toMatchObject({ count: 2, hasMore: false });
    // two letters with more than a page: the count is capped as for longer terms
    const ei = await search("searchParam=ei&rowsPerPage=3");
    expect(ei).toMatchObject({ count: CONTACTS_COUNT_CAP, hasMore: true });
    expect(ei.contacts.map((c) => c.name)).toEqual(["Cliente Pereira 00001", "Cliente Pereira 00002", "Cliente Pereira 00003"]);
    // digits match the number; a term with a wildcard of LIKE matches it literally (no contact has one)
    const digits = await search("searchParam=03&rowsPerPage=200");
    expect(digits.contacts.map((c) => c.number)).toContain("5511987650003");
    expect(digits.contacts.every((c) => c.number.includes("03"))).toBe(true);
    expect((await search(`searchParam=${encodeURIComponent("%")}`)).contacts).toEqual([]);
    expect((await search(`searchParam=${encodeURIComponent("_a")}`)).contacts).toEqual([]);
  });

  it("finds a contact by its new name and e-mail once edited, never by the old ones, nor across the two", async () => {
    const [zeca] = (await search("searchParam=zeca")).contacts as unknown as { id: number }[];
    const res = await t.app.inject({
      method: "PUT",
      url: `/contacts/${zeca.id}`,
      headers: bearer(t.adminToken),
      payload: { name: "Zacarias Lima", number: "5511987650003", email: "zlima@Fibra.net" },
    });
    expect(res.statusCode).toBe(200);
    expect((await search("searchParam=zeca")).contacts).toEqual([]);
    expect((await search("searchParam=zacarias")).contacts.map((c) => c.name)).toEqual(["Zacarias Lima"]);
    expect((await search("searchParam=FIBRA")).contacts.map((c) => c.email)).toEqual(["zlima@fibra.net"]);
    // the end of the name and the start of the e-mail are not one text
    expect((await search(`searchParam=${encodeURIComponent("lima zlima")}`)).contacts).toEqual([]);
    expect((await search("searchParam=limazlima")).contacts).toEqual([]);
  });
});
