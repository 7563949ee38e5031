/**
 * Text as it may be stored: NUL and the other C0 control characters are dropped (PostgreSQL
 * refuses NUL in text and JSON), except tab, line feed and carriage return.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it removes
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

export function cleanText(value: string): string {
  return value.replace(CONTROLS, "");
}

/** Every string inside a plain value (objects, arrays) cleaned; Buffers, Dates and functions kept as they are. */
export function cleanDeep<T>(value: T): T {
  if (typeof value === "string") return cleanText(value) as T;
  if (Array.isArray(value)) return value.map(cleanDeep) as T;
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cleanDeep(v);
    return out as T;
  }
  return value;
}
