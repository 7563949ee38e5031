import { isDeepStrictEqual } from "node:util";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import fastJsonStringify from "fast-json-stringify";
import { ResponseSerializationError } from "fastify-type-provider-zod";
import { z } from "zod";

/**
 * How answers are written: each route's response schema (zod, from the contract) is compiled once,
 * at its first answer, into a fast-json-stringify function, which writes only the schema's fields
 * (the allow-list the zod encode gave) in one pass. The zod encode built a validated copy of the
 * whole answer and then JSON.stringify wrote it: on the side-by-side data a page of 40 tickets took
 * 87 µs that way and 38 µs compiled (`npm run bench -- serializer` prints both).
 *
 * The same fields and values as the zod encode wrote; within an object the required keys now come
 * first (fast-json-stringify's order), which no JSON reader depends on.
 *
 * A schema whose JSON Schema is not the same read as written (a transform, a pipe, a default) or
 * that fast-json-stringify cannot compile keeps the zod encode.
 *
 * Outside production (the test suites, development) every answer is also encoded by zod, as before,
 * and the two must hold the same values: a service that returns a field of the wrong type, or a schema the
 * compiled writer reads differently, fails the request (500) instead of being coerced silently.
 */
export function makeSerializerCompiler(opts: { checked: boolean }): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) => {
    const zodEncode = (data: unknown): string => {
      const result = z.safeEncode(schema, data);
      if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
      return JSON.stringify(result.data);
    };
    let write: ((data: unknown) => string) | undefined;
    const compiled = () => (write ??= compile(schema) ?? zodEncode);
    if (!opts.checked) return (data) => compiled()(data);
    return (data) => {
      const expected = zodEncode(data);
      // a schema left to zod has nothing to compare
      if (compiled() === zodEncode) return expected;
      const got = compiled()(data);
      // the same values; the order of an object's keys may differ (the compiled writer puts the required ones first)
      if (got !== expected && !isDeepStrictEqual(JSON.parse(got), JSON.parse(expected))) {
        const message = `the compiled answer differs from the zod encode: ${firstDifference(got, expected)}`;
        throw new ResponseSerializationError(method, url, { cause: new z.ZodError([{ code: "custom", message, path: [], input: data }]) });
      }
      return got;
    };
  };
}

/** The schema's compiled writer, or undefined when it must stay with zod. */
export function compile(schema: z.ZodType): ((data: unknown) => string) | undefined {
  try {
    const read = z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" });
    const written = z.toJSONSchema(schema, { io: "output", unrepresentable: "throw" });
    // Read and written differ only in `additionalProperties: false` (zod reads unknown keys and drops them)
    // unless the schema transforms. fast-json-stringify gets the schema without it too: it writes the declared
    // fields alone either way, and with it a nullable object carrying one field more (a union, which it
    // validates) failed the whole answer.
    const shape = (j: unknown) => JSON.stringify(j, (k, v) => (k === "additionalProperties" && v === false ? undefined : v));
    const writtenShape = shape(written);
    if (shape(read) !== writtenShape) return undefined;
    const { $schema: _, ...json } = JSON.parse(writtenShape) as Record<string, unknown>;
    return fastJsonStringify(json as unknown as Parameters<typeof fastJsonStringify>[0]) as (data: unknown) => string;
  } catch {
    return undefined;
  }
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: compiled …${a.slice(Math.max(0, i - 40), i + 40)}… zod …${b.slice(Math.max(0, i - 40), i + 40)}…`;
}
