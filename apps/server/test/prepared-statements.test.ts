import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../src/db/client.js";
import { PLANNED_EACH_RUN } from "../src/db/preparing-client.js";
import { createSharedDatabase } from "./helpers.js";

/**
 * On PostgreSQL the pool's connections prepare a statement the process sends again and again
 * (db/preparing-client.ts): PostgreSQL parses and plans it once per connection instead of on every
 * run. Always on PostgreSQL (TEST_DATABASE_URL's server, or 127.0.0.1:5432), one connection so
 * that `pg_prepared_statements` shows what that connection keeps.
 */
describe("statements prepared on their connection (PostgreSQL)", () => {
  let shared: { url: string; drop: () => Promise<void> };
  let database: Database;
  const prepared = async () =>
    (await database.db.execute<{ statement: string }>(sql.raw("select statement from pg_prepared_statements"))).rows.map(
      (r) => r.statement,
    );

  beforeAll(async () => {
    shared = await createSharedDatabase();
    database = await openDatabase({ databaseUrl: shared.url, poolSize: 1 });
  });
  afterAll(async () => {
    await database.close();
    await shared.drop();
  });

  it("a statement sent a third time is prepared, and every run answers its own parameters", async () => {
    const answers: number[] = [];
    for (const n of [1, 2, 3, 4, 5]) {
      const { rows } = await database.db.execute<{ v: number }>(sql`select ${n}::int + 100 as v`);
      answers.push(rows[0].v);
    }
    expect(answers).toEqual([101, 102, 103, 104, 105]);
    expect(await prepared()).toContain("select $1::int + 100 as v");
  });

  it("a text sent once or twice, one without parameters, and a search by a pattern are not kept on the connection", async () => {
    await database.db.execute(sql`select ${7}::int * 3 as once`);
    await database.db.execute(sql`select ${7}::int * 4 as twice`);
    await database.db.execute(sql`select ${8}::int * 4 as twice`);
    for (let i = 0; i < 5; i++) await database.db.execute(sql.raw("select 42 as constant"));
    // a search by a typed term: its plan depends on the pattern, so it is planned every time
    for (const term of ["%ab%", "%silva%", "%ab%", "%joão%"]) await database.db.execute(sql`select ${term}::text like '%' as searched`);
    const kept = await prepared();
    expect(kept.some((s) => s.includes("as once") || s.includes("as twice") || s.includes("constant") || s.includes("searched"))).toBe(
      false,
    );
  });

  it("a statement marked to be planned on each run is never kept, however often it is sent, and answers each run's values", async () => {
    const answers: number[] = [];
    for (const ids of [[1], [1, 2], [3, 4, 5], [6], [7, 8], [9]])
      answers.push(
        (
          await database.db.execute<{ n: number }>(
            sql`${sql.raw(PLANNED_EACH_RUN)}select count(*)::int as n from unnest(${`{${ids.join(",")}}`}::int[]) as ids`,
          )
        ).rows[0].n,
      );
    expect(answers).toEqual([1, 2, 3, 1, 2, 1]);
    // the same text without the mark is kept after its third send: the mark, not the text, decides
    for (let i = 0; i < 3; i++) await database.db.execute(sql`select count(*)::int as n from unnest(${"{1,2}"}::int[]) as ids`);
    const kept = await prepared();
    expect(kept.filter((s) => s.includes("from unnest($1::int[]) as ids"))).toEqual([
      "select count(*)::int as n from unnest($1::int[]) as ids",
    ]);
  });

  it("after a migration changes the columns a prepared statement answers, one run fails and the next ones answer the new columns", async () => {
    await database.exec("create table plans_t (id int primary key, body text not null); insert into plans_t values (1, 'um')");
    const read = () => database.db.execute<Record<string, unknown>>(sql`select * from plans_t where id = ${1}`);
    for (let i = 0; i < 4; i++) expect((await read()).rows[0]).toEqual({ id: 1, body: "um" });
    expect(await prepared()).toContain("select * from plans_t where id = $1");
    // another process's migration, as a deploy runs it: PostgreSQL refuses the stale statement once
    // ("cached plan must not change result type"), then plans it anew
    await database.exec("alter table plans_t add column extra text not null default 'novo'");
    const failed = await read().then(
      () => undefined,
      (err: { cause?: { code?: string }; code?: string }) => err.cause?.code ?? err.code,
    );
    expect(failed).toBe("0A000");
    for (let i = 0; i < 3; i++) expect((await read()).rows[0]).toEqual({ id: 1, body: "um", extra: "novo" });
  });

  it("a prepared lookup reads what was written between its runs", async () => {
    await database.exec("create table notes_t (id int primary key, body text not null)");
    for (const id of [1, 2, 3, 4]) {
      await database.db.execute(sql`insert into notes_t (id, body) values (${id}, ${`nota ${id}`})`);
      const { rows } = await database.db.execute<{ n: number; last: string }>(
        sql`select count(*)::int as n, max(body) as last from notes_t where id <= ${id}`,
      );
      expect(rows[0]).toEqual({ n: id, last: `nota ${id}` });
    }
    const kept = await prepared();
    expect(kept.some((s) => s.startsWith("insert into notes_t"))).toBe(true);
    expect(kept.some((s) => s.startsWith("select count(*)::int as n"))).toBe(true);
  });
});
