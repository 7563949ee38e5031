/** Server names of disconnect reasons that are not plain keys. */
const REASON_KEY: Record<string, string> = { "logged out": "adminLogout", "no driver": "noDriver" };

/** The translated reason a session stopped (the server's own text when unknown). */
export function reasonText(reason: string, t: (key: string) => string, exists: (key: string) => boolean): string {
  if (reason.endsWith(": retries exhausted")) return t("connections.reasons.retriesExhausted");
  const key = `connections.reasons.${REASON_KEY[reason] ?? reason}`;
  return exists(key) ? t(key) : reason;
}
