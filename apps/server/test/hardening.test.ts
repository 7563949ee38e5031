import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT: "20000" });
});
afterAll(() => t.teardown());

describe("bad input gets a clear error and loses nothing", () => {
  it("malformed JSON answers 400 ERR_INVALID_JSON", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/queue",
      headers: { ...bearer(t.adminToken), "content-type": "application/json" },
      payload: '{"name": "Sup',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "ERR_INVALID_JSON" });
  });

  it("wrong types answer 400 naming the fields", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/queue",
      headers: bearer(t.adminToken),
      payload: { name: 42, color: ["#fff"] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_VALIDATION");
    expect(Object.keys(res.json().fields).sort()).toEqual(["color", "name"]);
  });

  it("an oversize body answers 413 and writes nothing", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/quickAnswers",
      headers: bearer(t.adminToken),
      payload: { shortcut: "grande", message: "x".repeat(25_000) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: "ERR_PAYLOAD_TOO_LARGE" });
    const list = await t.app.inject({ method: "GET", url: "/quickAnswers?searchParam=grande", headers: bearer(t.adminToken) });
    expect(list.json().count).toBe(0);
  });

  it("unknown ids and routes answer 404 with a code", async () => {
    const res = await t.app.inject({ method: "GET", url: "/contacts/424242", headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "ERR_NO_CONTACT_FOUND" });
    const route = await t.app.inject({ method: "GET", url: "/nope", headers: { accept: "application/json" } });
    expect(route.statusCode).toBe(404);
    expect(route.json()).toEqual({ error: "ERR_NOT_FOUND" });
    const badId = await t.app.inject({ method: "GET", url: "/contacts/-1", headers: bearer(t.adminToken) });
    expect(badId.statusCode).toBe(400);
  });

  it("a failing write in a transaction leaves nothing behind", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/contacts",
      headers: bearer(t.adminToken),
      payload: { name: "Meia Escrita", number: "5511955554444", tagIds: [777] },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "ERR_NO_TAG_FOUND" });
    const list = await t.app.inject({ method: "GET", url: "/contacts?searchParam=meia", headers: bearer(t.adminToken) });
    expect(list.json().count).toBe(0);
  });

  it("an unexpected failure answers 500 with a request id and no internals, and the process goes on", async () => {
    // a database fault the code does not expect: the table is gone
    await t.ctx.database.exec("ALTER TABLE quick_answers RENAME TO quick_answers_hidden");
    try {
      const res = await t.app.inject({ method: "GET", url: "/quickAnswers", headers: bearer(t.adminToken) });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: "ERR_INTERNAL", requestId: expect.any(String) });
      expect(res.body).not.toContain("quick_answers");
    } finally {
      await t.ctx.database.exec("ALTER TABLE quick_answers_hidden RENAME TO quick_answers");
    }
    expect((await t.app.inject({ method: "GET", url: "/queue", headers: bearer(t.adminToken) })).statusCode).toBe(200);
  });
});

describe("OpenAPI", () => {
  it("the routes' zod schemas produce an OpenAPI document with a browsable page", async () => {
    const doc = await t.app.inject({ method: "GET", url: "/api-docs/json" });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(spec.paths["/auth/login"].post.requestBody.content["application/json"].schema.properties).toHaveProperty("email");
    expect(spec.paths["/queue/{id}"]).toBeDefined();
    expect(spec.paths["/contacts"].get.parameters.map((p: { name: string }) => p.name)).toContain("searchParam");
    const page = await t.app.inject({ method: "GET", url: "/api-docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
  });
});
