import { ERROR_STATUS, type ErrorCode } from "@balcao/contract";

/** A domain error: an ERR_* code of the catalogue and the HTTP status it answers with. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    status?: number,
    readonly fields?: Record<string, string[]>,
  ) {
    super(code);
    this.status = status ?? ERROR_STATUS[code];
  }
}

/** True when a database error is a unique violation (on the named constraint, if given). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = findPgError(err);
  return !!e && e.code === "23505" && (!constraint || e.constraint === constraint);
}

export function isForeignKeyViolation(err: unknown): boolean {
  return findPgError(err)?.code === "23503";
}

/**
 * PostgreSQL's data exceptions (class 22: numeric value out of range, invalid text representation,
 * NUL in text…) and program limits (54: an index row too large): the value sent was unusable.
 */
export function isDataException(err: unknown): boolean {
  const code = findPgError(err)?.code;
  return !!code && (code.startsWith("22") || code === "54000");
}

function findPgError(err: unknown): { code?: string; constraint?: string } | undefined {
  let cur: unknown = err;
  for (let i = 0; i < 4 && cur && typeof cur === "object"; i++) {
    const c = cur as { code?: unknown; constraint?: string; cause?: unknown };
    if (typeof c.code === "string" && /^\d{5}$|^[0-9A-Z]{5}$/.test(c.code)) return c as { code: string; constraint?: string };
    cur = c.cause;
  }
  return undefined;
}
