import { contactBody, loginBody, MSG, queueBody, quickAnswerBody, signupBody, userCreateBody, whatsappBody } from "@balcao/contract";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import i18n from "../locales";
import { en } from "../locales/en";
import { es } from "../locales/es";
import { pt } from "../locales/pt";
import { localizedResolver, validationKey } from "./validation";

/** Every message the form would show for these inputs, through the forms' resolver. */
async function formMessages(schema: z.ZodType, inputs: unknown[]): Promise<string[]> {
  const resolver = localizedResolver(schema as z.ZodType<unknown, Record<string, unknown>>);
  const out: string[] = [];
  const walk = (errors: unknown) => {
    for (const v of Object.values((errors ?? {}) as Record<string, unknown>)) {
      if (!v || typeof v !== "object") continue;
      const e = v as { message?: unknown; type?: unknown };
      if (typeof e.message === "string" && typeof e.type === "string") out.push(e.message);
      else walk(v);
    }
  };
  for (const input of inputs) {
    const r = await resolver(input as Record<string, unknown>, undefined, { fields: {}, shouldUseNativeValidation: false });
    walk(r.errors);
  }
  return out;
}

const long = "x".repeat(40_000);
/** Wrong in every way a person (or a bad client) can get a form wrong. */
const BAD_INPUTS: unknown[] = [
  {},
  { name: "", email: "", password: "", number: "", color: "", shortcut: "", message: "", greetingMessage: "" },
  { name: "a", email: "não-é-email", password: "123", number: "12ab", color: "#1", shortcut: "a", message: "curta" },
  {
    name: long,
    email: `${long}@x.com`,
    password: long,
    number: "1".repeat(60),
    color: long,
    shortcut: long,
    message: long,
    greetingMessage: long,
  },
  { name: 42, email: 42, password: 42, number: 42, profile: "chefe", queueIds: ["x"], isDefault: "sim", sendIntervalMs: -1, sendBurst: 99 },
  { extraInfo: [{ name: "", value: long }], tagIds: [0], type: "fax", sendJitterMs: 1.5 },
];

const ptValidation = new Set(Object.values(pt.validation));

describe("validation messages come from the locale files", () => {
  it("every message of the forms' schemas is a pt-BR text of the locale files, never zod's English", async () => {
    await i18n.changeLanguage("pt-BR");
    const schemas = { loginBody, signupBody, userCreateBody, queueBody, contactBody, quickAnswerBody, whatsappBody };
    for (const [name, schema] of Object.entries(schemas)) {
      const messages = await formMessages(schema, BAD_INPUTS);
      expect(messages.length, name).toBeGreaterThan(0);
      for (const m of messages) expect(ptValidation, `${name}: "${m}"`).toContain(m);
    }
  });

  it("the contract's messages and the server's field texts each have their key, in all three languages", () => {
    for (const message of Object.values(MSG)) expect(validationKey(message), message).not.toBe("validation.invalid");
    for (const key of Object.keys(pt.validation)) {
      expect(en.validation[key as keyof typeof en.validation], key).toBeTruthy();
      expect(es.validation[key as keyof typeof es.validation], key).toBeTruthy();
    }
    // a text the server may send that we do not know reads as "invalid value", not as English
    expect(validationKey("Invalid input: expected number, received string")).toBe("validation.invalid");
  });

  it("English and Spanish show their own texts", async () => {
    i18n.addResourceBundle("en", "translation", en);
    i18n.addResourceBundle("es", "translation", es);
    await i18n.changeLanguage("es");
    expect(await formMessages(loginBody, [{ email: "x", password: "" }])).toEqual([es.validation.invalidEmail, es.validation.required]);
    await i18n.changeLanguage("en");
    expect(await formMessages(queueBody, [{ name: "", color: "#abc" }])).toEqual([en.validation.obrigatorio]);
    await i18n.changeLanguage("pt-BR");
  });
});
