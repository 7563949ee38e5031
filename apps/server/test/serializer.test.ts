import { contactsAnswer, messagesAnswer, ticketsAnswer } from "@balcao/contract";
import Fastify from "fastify";
import { type ZodTypeProvider, validatorCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile, makeSerializerCompiler } from "../src/http/serializer.js";

/**
 * The answers' writer (http/serializer.ts): each response schema compiled once. What it must keep
 * from the zod encode it replaced: only the schema's fields leave the server, every text arrives
 * exactly as stored, and outside production a wrong answer is refused rather than coerced.
 */

const userLike = z.object({
  id: z.number(),
  name: z.string(),
  queue: z.object({ id: z.number(), name: z.string() }).nullable(),
  tags: z.array(z.object({ id: z.number(), name: z.string() })),
  erasedAt: z.string().nullable().optional(),
});

async function appAnswering(checked: boolean, schema: z.ZodType, answer: unknown) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(makeSerializerCompiler({ checked }));
  app.get("/x", { schema: { response: { 200: schema } } }, async () => answer);
  await app.ready();
  const res = await app.inject({ method: "GET", url: "/x" });
  await app.close();
  return res;
}

const TRICKY = [
  'aspas "duplas"',
  "barra \\ invertida",
  "linha\nnova\tcom tab",
  "\u0001\u001f",
  "emoji 😀 🇧🇷",
  "sozinho \ud800 x",
  "\u2028\u2029",
  "ação é ç",
  "</script><script>",
];

describe("the answers' writer", () => {
  for (const checked of [false, true]) {
    const mode = checked ? "checked (tests, development)" : "production";
    it(`${mode}: writes only the schema's fields, nested ones too`, async () => {
      const res = await appAnswering(checked, userLike, {
        id: 7,
        name: "Ana",
        passwordHash: "$2b$10$secret",
        queue: { id: 1, name: "Suporte", tokenSecret: "x" },
        tags: [{ id: 2, name: "VIP", color: "#f00", internal: true }],
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(/secret|passwordHash|internal|color/i);
      expect(JSON.parse(res.body)).toEqual({ id: 7, name: "Ana", queue: { id: 1, name: "Suporte" }, tags: [{ id: 2, name: "VIP" }] });
    });

    it(`${mode}: every text arrives exactly as it was`, async () => {
      const answer = { id: 1, name: TRICKY.join("|"), queue: null, tags: TRICKY.map((name, id) => ({ id, name })), erasedAt: null };
      const res = await appAnswering(checked, userLike, answer);
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body)).toEqual(answer);
      // the same text JSON.stringify writes for each, escapes included
      for (const t of TRICKY) expect(res.body).toContain(JSON.stringify(t));
    });
  }

  it("checked: an answer of the wrong type is refused (500), not coerced", async () => {
    const res = await appAnswering(true, userLike, { id: "7", name: 12, queue: null, tags: [] });
    expect(res.statusCode).toBe(500);
  });

  it("a schema that transforms keeps the zod encode, and still answers", async () => {
    const withDefault = z.object({ id: z.number(), status: z.string().default("open") });
    const transformed = z.object({ n: z.string().transform((s) => s.length) });
    expect(compile(withDefault)).toBeUndefined();
    expect(compile(transformed)).toBeUndefined();
    const res = await appAnswering(true, withDefault, { id: 3, status: "closed", extra: 1 });
    expect(JSON.parse(res.body)).toEqual({ id: 3, status: "closed" });
  });

  it("the lists' answers (tickets, contacts, messages) are compiled, not left to zod", () => {
    for (const schema of [ticketsAnswer, contactsAnswer, messagesAnswer]) expect(compile(schema)).toBeTypeOf("function");
  });
});
