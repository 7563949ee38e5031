/**
 * Text from outside (HTTP bodies, query strings, multipart fields, channel events) loses NUL and
 * the other C0 control characters, except tab, newline and carriage return. PostgreSQL refuses
 * NUL in text, and the other controls only ever arrive by accident or malice.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const C0_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

/** The text without NUL and C0 controls (tab, newline and carriage return are kept). */
export function cleanText(text: string): string {
  C0_EXCEPT_WHITESPACE.lastIndex = 0;
  return C0_EXCEPT_WHITESPACE.test(text) ? text.replace(C0_EXCEPT_WHITESPACE, "") : text;
}

/**
 * Every string inside a JSON-like value cleaned with cleanText (object keys too), in place for
 * objects and arrays; answers the cleaned value. Depth is bounded: deeper values are left as they are
 * (no schema accepts them).
 */
export function cleanDeep<T>(value: T, depth = 0): T {
  if (typeof value === "string") return cleanText(value) as T;
  if (depth > 32 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = cleanDeep(value[i], depth + 1);
    return value;
  }
  if (isBinary(value)) return value;
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const cleanKey = cleanText(key);
    const v = cleanDeep(obj[key], depth + 1);
    if (cleanKey !== key) {
      delete obj[key];
      if (!(cleanKey in obj)) obj[cleanKey] = v;
    } else obj[key] = v;
  }
  return value;
}

/** Binary payloads (Node Buffers, typed arrays) are not text. */
function isBinary(value: object): boolean {
  return ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
}
