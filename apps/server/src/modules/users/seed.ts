import { randomBytes } from "node:crypto";
import { SETTING_DEFAULTS } from "@balcao/contract";
import { count } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Config, DEMO_ADMIN } from "../../config.js";
import { hashPassword } from "../../lib/password.js";
import type { Db } from "../../db/client.js";
import { settings, users } from "../../db/schema/index.js";

/**
 * First start: every setting key with its default, and an admin when there is no user.
 * The admin comes from ADMIN_EMAIL/ADMIN_PASSWORD; without them the documented demo pair is
 * used, except in production, where a random password is generated and printed once.
 */
export async function seed(db: Db, config: Config, log: FastifyBaseLogger): Promise<void> {
  // every key of both documents gets its default (from the contract); existing values are kept
  await db
    .insert(settings)
    .values(Object.entries(SETTING_DEFAULTS).map(([key, value]) => ({ key, value })))
    .onConflictDoNothing();
  const [{ n }] = await db.select({ n: count() }).from(users);
  if (n > 0) return;
  const email = config.ADMIN_EMAIL ?? DEMO_ADMIN.email;
  let password = config.ADMIN_PASSWORD;
  let generated = false;
  if (!password) {
    if (config.isProduction) {
      password = randomBytes(12).toString("base64url");
      generated = true;
    } else password = DEMO_ADMIN.password;
  }
  await db
    .insert(users)
    .values({ name: "Admin", email: email.toLowerCase(), passwordHash: await hashPassword(password), profile: "admin" })
    .onConflictDoNothing();
  if (generated) {
    // printed once, on the console only, never to the structured log
    process.stdout.write(`\n  Admin account created: ${email}\n  Password (shown once, change it after signing in): ${password}\n\n`);
  } else log.info({ email }, "admin account created");
}
