import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/client.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/**
 * On PGlite, initdb and the migrations run once: every test file starts its own in-memory
 * database from this migrated template (a fresh copy each, nothing shared between files).
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide("pgliteTemplate", "");
    return;
  }
  const database = await openDatabase({ dataDir: "memory://" });
  const blob = await database.dump!();
  await database.close();
  const path = join(tmpdir(), `balcao-pglite-template-${process.pid}.tar`);
  writeFileSync(path, Buffer.from(await blob.arrayBuffer()));
  project.provide("pgliteTemplate", path);
  return () => rmSync(path, { force: true });
}
