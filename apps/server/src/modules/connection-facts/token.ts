import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { whatsapps } from "../../db/schema/index.js";

/**
 * The connection a message-API token belongs to (the token field of the connection form), for
 * calls made by outside tools: `Authorization: Bearer <token>`, or the `X_TOKEN` / `X-Token`
 * header the API documentation names. Undefined when no connection has it.
 */
export async function connectionByToken(db: DbOrTx, token: string): Promise<{ id: number; name: string } | undefined> {
  if (!token || token.length > 200) return undefined;
  const [row] = await db.select({ id: whatsapps.id, name: whatsapps.name }).from(whatsapps).where(eq(whatsapps.token, token));
  return row;
}

/** The token of a request, from whichever header carries it. */
export function apiTokenOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim();
  const auth = first(headers.authorization);
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, "").trim() || undefined;
  return first(headers.x_token) || first(headers["x-token"]) || undefined;
}
