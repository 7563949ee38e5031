import { MSG } from "@balcao/contract";
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldErrors, FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";
import i18n from "../locales";

/**
 * Every validation message a user can read comes from the locale files: the contract's messages
 * (MSG, shared with the server) and zod's own issues (a schema that names no message) are mapped
 * to `validation.*` keys, and the forms show their translation.
 */
const BY_MESSAGE: Record<string, string> = {
  [MSG.tooShort]: "validation.tooShort",
  [MSG.tooLong]: "validation.tooLong",
  [MSG.required]: "validation.required",
  [MSG.obrigatorio]: "validation.obrigatorio",
  [MSG.invalidEmail]: "validation.invalidEmail",
  [MSG.invalidNumber]: "validation.invalidNumber",
  [MSG.inUse]: "validation.inUse",
};

type Issue = { code: string; input?: unknown; origin?: string; minimum?: unknown; format?: string };

/** The key of one of zod's own issues (no message in the schema), by its code and what it checks. */
export function issueKey(iss: Issue): string {
  switch (iss.code) {
    case "invalid_type":
      return iss.input === undefined || iss.input === null || iss.input === "" ? "validation.required" : "validation.invalid";
    case "too_small":
      if (iss.origin === "string") return Number(iss.minimum) <= 1 ? "validation.required" : "validation.tooShort";
      if (iss.origin === "array" || iss.origin === "set") return "validation.tooFew";
      return "validation.tooSmall";
    case "too_big":
      if (iss.origin === "string") return "validation.tooLong";
      if (iss.origin === "array" || iss.origin === "set") return "validation.tooMany";
      return "validation.tooBig";
    case "invalid_format":
      return iss.format === "email" ? "validation.invalidEmail" : "validation.invalid";
    default:
      return "validation.invalid";
  }
}

/** The key of a message from a schema or the server; unknown texts read as a plain "invalid value". */
export function validationKey(message: string | undefined): string {
  if (!message) return "validation.invalid";
  if (message.startsWith("validation.")) return message;
  return BY_MESSAGE[message] ?? "validation.invalid";
}

/** A validation message in the interface's language. */
export function validationText(message: string | undefined): string {
  return i18n.t(validationKey(message));
}

function translateAll(errors: FieldErrors): void {
  for (const value of Object.values(errors)) {
    if (!value || typeof value !== "object") continue;
    const e = value as { message?: unknown; type?: unknown; ref?: unknown };
    if (typeof e.message === "string" && typeof e.type === "string") e.message = validationText(e.message);
    else translateAll(value as FieldErrors);
  }
}

/** zodResolver with every message taken from the locale files. */
export function localizedResolver<In extends FieldValues, Out>(schema: z.ZodType<Out, In>): Resolver<In, unknown, Out> {
  // zod's own issues come out as their key; the schema's own messages (MSG) are mapped after
  const base = zodResolver(schema as never, { error: (iss: Issue) => issueKey(iss) } as never) as unknown as Resolver<In, unknown, Out>;
  return async (values, context, options) => {
    const result = await base(values, context, options);
    translateAll(result.errors as FieldErrors);
    return result;
  };
}
