import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerSays, pairedSimulator } from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let agentToken: string;
beforeAll(async () => {
  t = await createTestApp();
  agentToken = (await t.createUser({ name: "Agente" })).token;
});
afterAll(() => t.teardown());

const create = (payload: object, token = agentToken, url = "/contacts") =>
  t.app.inject({ method: "POST", url, headers: bearer(token), payload });

function multipart(filename: string, content: Buffer | string, field = "file") {
  const boundary = "----balcaotest";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
const importCsv = (filename: string, content: Buffer | string, token = t.adminToken) => {
  const m = multipart(filename, content);
  return t.app.inject({ method: "POST", url: "/contacts/import", headers: { ...m.headers, ...bearer(token) }, payload: m.payload });
};

describe("contacts", () => {
  it("creates a contact with extra info; the number gets country code 55 and loses its mask", async () => {
    const res = await create({
      name: "João Silva",
      number: "(11) 98765-4321",
      email: "Joao@Mail.com",
      extraInfo: [{ name: "Plano", value: "500 Mega" }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: "João Silva",
      number: "5511987654321",
      email: "joao@mail.com",
      extraInfo: [{ name: "Plano", value: "500 Mega" }],
      tags: [],
    });
  });

  it("the list shows each contact's extra info (in the order written) and tags (by name), and none for a bare contact", async () => {
    const tag = async (name: string) =>
      (await t.app.inject({ method: "POST", url: "/tags", headers: bearer(t.adminToken), payload: { name, color: "#123456" } })).json().id;
    const [vip, fibra] = [await tag("VIP lista"), await tag("Fibra lista")];
    const full = await create(
      {
        name: "Listado Completo",
        number: "5511933330001",
        extraInfo: [
          { name: "Plano", value: "500 Mega" },
          { name: "CPF", value: "123" },
        ],
        tagIds: [vip, fibra],
      },
      t.adminToken,
    );
    expect(full.statusCode).toBe(200);
    expect((await create({ name: "Listado Vazio", number: "5511933330002" }, t.adminToken)).statusCode).toBe(200);
    const res = await t.app.inject({ method: "GET", url: "/contacts?searchParam=listado", headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(200);
    const [first, second] = res.json().contacts;
    expect(first).toMatchObject({
      name: "Listado Completo",
      extraInfo: [
        { name: "Plano", value: "500 Mega" },
        { name: "CPF", value: "123" },
      ],
      tags: [
        { id: fibra, name: "Fibra lista", color: "#123456" },
        { id: vip, name: "VIP lista", color: "#123456" },
      ],
    });
    expect(first).toEqual(full.json());
    expect(second).toMatchObject({ name: "Listado Vazio", extraInfo: [], tags: [] });
  });

  it("keeps a number that already has a country code", async () => {
    const res = await create({ name: "Lisboa", number: "+351 912 345 678" });
    expect(res.json().number).toBe("351912345678");
  });

  it("validates name 2–50, number 8–50 and e-mail", async () => {
    const res = await create({ name: "J", number: "1234", email: "nope" });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({ name: ["Too Short!"], number: ["Too Short!"], email: ["Invalid email"] });
    const empty = await create({ name: "Sem Número", number: "" });
    expect(empty.json().fields.number[0]).toBe("Required");
    const letters = await create({ name: "Letras", number: "abcdefghij" });
    expect(letters.json().fields.number).toBeDefined();
  });

  it("refuses a duplicated number with ERR_DUPLICATED_CONTACT", async () => {
    await create({ name: "Maria", number: "5521999990000" });
    const dup = await create({ name: "Maria 2", number: "21 99999-0000" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: "ERR_DUPLICATED_CONTACT" });
  });

  it("POST /contact answers the existing contact for a known number, or creates it", async () => {
    const first = await create({ name: "Pedro", number: "5531988887777" }, agentToken, "/contact");
    expect(first.statusCode).toBe(200);
    const again = await create({ name: "Outro Nome", number: "31 98888-7777" }, agentToken, "/contact");
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: first.json().id, name: "Pedro" });
  });

  it("searches by name, number and e-mail, paginated", async () => {
    for (let i = 0; i < 3; i++) await create({ name: `Busca Teste ${i}`, number: `55419000000${i}0` });
    const byName = await t.app.inject({
      method: "GET",
      url: "/contacts/?searchParam=busca%20teste&rowsPerPage=2",
      headers: bearer(agentToken),
    });
    expect(byName.json()).toMatchObject({ count: 3, hasMore: true });
    expect(byName.json().contacts).toHaveLength(2);
    const byNumber = await t.app.inject({ method: "GET", url: "/contacts?searchParam=4190000001", headers: bearer(agentToken) });
    expect(byNumber.json().contacts.map((c: { name: string }) => c.name)).toEqual(["Busca Teste 1"]);
    const wildcard = await t.app.inject({ method: "GET", url: "/contacts?searchParam=%25", headers: bearer(agentToken) });
    expect(wildcard.json().count).toBe(0);
  });

  it("updates only what is sent and replaces the extra info", async () => {
    const c = (
      await create({ name: "Editável", number: "5541911110000", email: "e@x.com", extraInfo: [{ name: "A", value: "1" }] })
    ).json();
    const res = await t.app.inject({
      method: "PUT",
      url: `/contacts/${c.id}`,
      headers: bearer(agentToken),
      payload: { name: "Editado", extraInfo: [{ name: "B", value: "2" }] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Editado",
      number: "5541911110000",
      email: "e@x.com",
      extraInfo: [{ name: "B", value: "2" }],
    });
  });

  it("only admins delete contacts; unknown ids answer ERR_NO_CONTACT_FOUND", async () => {
    const c = (await create({ name: "Apagável", number: "5541922220000" })).json();
    const denied = await t.app.inject({ method: "DELETE", url: `/contacts/${c.id}`, headers: bearer(agentToken) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await t.app.inject({ method: "DELETE", url: `/contacts/${c.id}`, headers: bearer(t.adminToken) })).statusCode).toBe(200);
    const gone = await t.app.inject({ method: "GET", url: `/contacts/${c.id}`, headers: bearer(agentToken) });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: "ERR_NO_CONTACT_FOUND" });
    const deniedAll = await t.app.inject({ method: "DELETE", url: "/contacts/all", headers: bearer(agentToken) });
    expect(deniedAll.statusCode).toBe(403);
  });

  it("imports a CSV with a per-row report: created, duplicates skipped, invalid rows explained", async () => {
    await create({ name: "Já Existe", number: "5511933334444" });
    const csv =
      "nome;numero;email\nAna Lima;(11) 94444-5555;ana@x.com\nJá Existe;11 93333-4444;\nSem Número;;\nAna Lima de novo;11944445555;\nB;11955556666;\n";
    const res = await importCsv("contatos.csv", csv);
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ total: 5, created: 1, skipped: 2, errors: 2 });
    expect(report.rows[0]).toMatchObject({ row: 2, status: "created", number: "5511944445555" });
    expect(report.rows[1]).toMatchObject({ row: 3, status: "skipped", error: "ERR_DUPLICATED_CONTACT" });
    expect(report.rows[2]).toMatchObject({ row: 4, status: "error" });
    expect(report.rows[3]).toMatchObject({ row: 5, status: "skipped" });
    expect(report.rows[4]).toMatchObject({ row: 6, status: "error" });
    expect(report.rows[4].error).toContain("Too Short!");
    const found = await t.app.inject({ method: "GET", url: "/contacts?searchParam=ana%20lima", headers: bearer(agentToken) });
    expect(found.json().contacts).toMatchObject([{ name: "Ana Lima", email: "ana@x.com" }]);
  });

  it("imports a headerless, comma-separated, Windows-1252 CSV with quoted fields", async () => {
    const csv = Buffer.from('"Conceição, Maria",11977778888\r\nJosé,11966667777\r\n', "latin1");
    const res = await importCsv("export.csv", csv);
    expect(res.json()).toMatchObject({ total: 2, created: 2 });
    const found = await t.app.inject({ method: "GET", url: "/contacts?searchParam=concei", headers: bearer(agentToken) });
    expect(found.json().contacts[0]).toMatchObject({ name: "Conceição, Maria", number: "5511977778888" });
  });

  it("refuses a file that is not text, whatever its name says", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
    const res = await importCsv("contacts.csv", png);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_INVALID_FILE");
  });

  it("POST /contacts/import without a file imports the contacts the connected phone knows; known numbers are kept as they are", async () => {
    // nothing to ask yet: no connection
    const none = await t.app.inject({ method: "POST", url: "/contacts/import", headers: bearer(t.adminToken) });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ error: "ERR_NO_DEF_WAPP_FOUND" });

    const sim = await pairedSimulator(t, { isDefault: true });
    await customerSays(t, sim, "5511977770001", "oi", { name: "Fernanda Lima" });
    await customerSays(t, sim, "5511977770002", "bom dia", { name: "Gustavo Reis" });
    await customerSays(t, sim, "5511977770003", "no grupo", { name: "Helena", groupId: "120363000000000099" });
    // the phone's contacts were deleted here; one of them was added again by hand with another name
    await t.app.inject({ method: "DELETE", url: "/contacts/all", headers: bearer(t.adminToken) });
    const kept = await t.app.inject({
      method: "POST",
      url: "/contacts",
      headers: bearer(t.adminToken),
      payload: { name: "Gustavo (cliente VIP)", number: "5511977770002" },
    });
    expect(kept.statusCode).toBe(200);

    // what the original client sends: no body at all
    const res = await t.app.inject({ method: "POST", url: "/contacts/import", headers: bearer(t.adminToken) });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ total: 2, created: 1, skipped: 1, updated: 0, errors: 0 });
    expect(report.rows.find((r: { number: string }) => r.number === "5511977770002")).toMatchObject({
      status: "skipped",
      contactId: kept.json().id,
    });
    const search = async (q: string) =>
      (await t.app.inject({ method: "GET", url: `/contacts?searchParam=${q}`, headers: bearer(t.adminToken) })).json().contacts;
    expect(await search("5511977770001")).toMatchObject([{ name: "Fernanda Lima", number: "5511977770001" }]);
    expect(await search("5511977770002")).toMatchObject([{ name: "Gustavo (cliente VIP)" }]);
    // a group is not a person of the address book
    expect(await search("120363000000000099")).toEqual([]);

    // again: everything is known now; a named connection works too
    const twice = await t.app.inject({
      method: "POST",
      url: "/contacts/import",
      headers: bearer(t.adminToken),
      payload: { whatsappId: sim.whatsappId },
    });
    expect(twice.json()).toMatchObject({ created: 0, skipped: 2 });
    const unknown = await t.app.inject({
      method: "POST",
      url: "/contacts/import",
      headers: bearer(t.adminToken),
      payload: { whatsappId: 999999 },
    });
    expect(unknown.json()).toEqual({ error: "ERR_NO_WAPP_FOUND" });
    // agents may not import
    const agent = await t.createUser({ name: "Agente Import" });
    const refused = await t.app.inject({ method: "POST", url: "/contacts/import", headers: bearer(agent.token) });
    expect(refused.statusCode).toBe(403);
  });

  it("DELETE /contacts/all removes every contact (admin)", async () => {
    const res = await t.app.inject({ method: "DELETE", url: "/contacts/all", headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(200);
    const list = await t.app.inject({ method: "GET", url: "/contacts", headers: bearer(agentToken) });
    expect(list.json()).toMatchObject({ contacts: [], count: 0, hasMore: false });
  });
});
