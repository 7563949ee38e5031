import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await t.createUser({ name: "Agente" })).token;
});
afterAll(() => t.teardown());

const post = (payload: object) => t.app.inject({ method: "POST", url: "/quickAnswers", headers: bearer(token), payload });

describe("quick answers", () => {
  it("any agent creates, edits and deletes a quick answer", async () => {
    const created = await post({ shortcut: "bomdia", message: "Bom dia! Como posso ajudar?" });
    expect(created.statusCode).toBe(200);
    const id = created.json().id;
    const upd = await t.app.inject({
      method: "PUT",
      url: `/quickAnswers/${id}`,
      headers: bearer(token),
      payload: { message: "Bom dia! Em que posso ajudar?" },
    });
    expect(upd.json()).toMatchObject({ shortcut: "bomdia", message: "Bom dia! Em que posso ajudar?" });
    expect((await t.app.inject({ method: "DELETE", url: `/quickAnswers/${id}`, headers: bearer(token) })).statusCode).toBe(200);
    const gone = await t.app.inject({ method: "GET", url: `/quickAnswers/${id}`, headers: bearer(token) });
    expect(gone.json()).toEqual({ error: "ERR_NO_QUICK_ANSWER_FOUND" });
  });

  it("validates shortcut 2–100 and message 8–30000", async () => {
    const res = await post({ shortcut: "a", message: "curta" });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({ shortcut: ["Too Short!"], message: ["Too Short!"] });
    const long = await post({ shortcut: "x".repeat(101), message: "y".repeat(30001) });
    expect(long.json().fields).toMatchObject({ shortcut: ["Too Long!"], message: ["Too Long!"] });
    const missing = await post({});
    expect(missing.json().fields).toMatchObject({ shortcut: ["Required"], message: ["Required"] });
  });

  it("refuses a duplicated shortcut", async () => {
    await post({ shortcut: "boleto", message: "Segue a segunda via do boleto." });
    const dup = await post({ shortcut: "BOLETO", message: "Outra mensagem qualquer." });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: "ERR_QUICK_ANSWER_ALREADY_EXISTS" });
  });

  it("the / lookup searches by shortcut, prefix matches first", async () => {
    await post({ shortcut: "sinal", message: "Vamos verificar o sinal da sua conexão." });
    await post({ shortcut: "semsinal", message: "Sem sinal: reinicie o roteador, por favor." });
    await post({ shortcut: "fatura", message: "Sua fatura vence no dia 10." });
    const res = await t.app.inject({ method: "GET", url: "/quickAnswers/?searchParam=%2Fsinal", headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().quickAnswers.map((q: { shortcut: string }) => q.shortcut)).toEqual(["sinal", "semsinal"]);
  });

  it("lists every quick answer alphabetically without a search, in pages", async () => {
    const res = await t.app.inject({ method: "GET", url: "/quickAnswers", headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const shortcuts = res.json().quickAnswers.map((q: { shortcut: string }) => q.shortcut);
    expect(shortcuts).toEqual(["boleto", "fatura", "semsinal", "sinal"]);
    const page = await t.app.inject({ method: "GET", url: "/quickAnswers?rowsPerPage=3&pageNumber=2", headers: bearer(token) });
    expect(page.json()).toMatchObject({ count: 4, hasMore: false, quickAnswers: [{ shortcut: "sinal" }] });
  });
});
