import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { contacts } from "../../db/schema/index.js";

type ContactRow = typeof contacts.$inferSelect;

/** The contact of a number, created when unknown (named `name` when given, else by its number); a known contact keeps its name. */
export async function contactFor(tx: DbOrTx, number: string, name = ""): Promise<{ contact: ContactRow; created?: ContactRow }> {
  const [inserted] = await tx
    .insert(contacts)
    .values({ name: name || number, number })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { contact: inserted, created: inserted };
  const { rows } = await tx.execute<{ id: number }>(sql`select id from contacts where number = ${number}`);
  const [found] = await tx
    .select()
    .from(contacts)
    .where(sql`${contacts.id} = ${rows[0]?.id ?? 0}`);
  if (!found) throw new Error("contact vanished");
  return { contact: found };
}
