import { z } from "zod";

/** The spec's form messages, used verbatim by forms and the server. */
export const MSG = {
  tooShort: "Too Short!",
  tooLong: "Too Long!",
  required: "Required",
  invalidEmail: "Invalid email",
  obrigatorio: "Obrigatório*",
  invalidNumber: "Invalid number",
  inUse: "Already in use",
} as const;

/** A required, trimmed string with the spec's length messages. */
export function requiredText(min: number, max: number, requiredMessage: string = MSG.required) {
  return z.string({ error: requiredMessage }).trim().min(1, requiredMessage).min(min, MSG.tooShort).max(max, MSG.tooLong);
}

/** Ids are PostgreSQL `serial`s: positive 32-bit integers. Anything else is a 400, never a database error. */
export const MAX_ID = 2_147_483_647;
/** An id in a JSON body. */
export const idSchema = z.number().int().min(1).max(MAX_ID);
/** An id in a path or query string (text coerced to a number). */
export const idText = z.coerce.number().int().min(1).max(MAX_ID);
export const idParam = z.object({ id: idText });
/** Pages beyond this are refused rather than turned into huge offsets. */
export const MAX_PAGE = 100_000;

export const emailField = z.string({ error: MSG.required }).trim().toLowerCase().min(1, MSG.required).pipe(z.email(MSG.invalidEmail));

/** Query-string boolean: "true"/"false"/"1"/"0". */
export const queryBool = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1");

/** A JSON boolean as clients send it: true/false, or 1/0 (the original web client's `read: 1`). */
export const jsonBool = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1);

export function pageQuery(max: number, def: number) {
  return {
    pageNumber: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
    rowsPerPage: z.coerce
      .number()
      .int()
      .min(1)
      .default(def)
      .transform((n) => Math.min(n, max)),
  };
}
