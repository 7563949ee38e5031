import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../src/app.js";
import { DEMO_ADMIN } from "../src/config.js";
import { pairedSimulator } from "./conversation-kit.js";
import { SGP_APP, startFakeSgp } from "./fakes/sgp.js";
import { bearer, createTestDatabase, testConfig, type TestApp } from "./helpers.js";

/** The integration's secret (SGP token, MK-AUTH client secret) never reaches the log, whatever fails. */

let app: App;
let drop: () => Promise<void>;
let token: string;
let sgp: Awaited<ReturnType<typeof startFakeSgp>>;
const lines: string[] = [];
const SECRET = "Sgp-Secret-4b8e1d";

beforeAll(async () => {
  sgp = await startFakeSgp(); // expects another token: every call is refused
  const db = await createTestDatabase();
  drop = db.drop;
  app = await buildApp(testConfig({ LOG_LEVEL: "debug" }), {
    database: db.database,
    serveWeb: false,
    logStream: { write: (line: string) => void lines.push(line) },
    billingHttp: { timeoutMs: 300, attempts: 2, backoffMs: 5 },
  });
  await app.app.ready();
  token = (await app.app.inject({ method: "POST", url: "/auth/login", payload: DEMO_ADMIN })).json().token;
  for (const [key, value] of [
    ["integrationUrl", sgp.url],
    ["integrationApp", SGP_APP],
    ["integrationToken", SECRET],
  ])
    await app.app.inject({ method: "PUT", url: `/settings/${key}`, headers: bearer(token), payload: { value } });
});
afterAll(async () => {
  await app.close();
  await drop();
  await sgp.close();
});

describe("the log of failed billing calls", () => {
  it("holds the failures but not the token", async () => {
    const sim = await pairedSimulator({ ...app, adminToken: token } as unknown as TestApp);
    const contact = (
      await app.app.inject({
        method: "POST",
        url: "/contacts",
        headers: bearer(token),
        payload: { name: "Cliente Log", number: "5549991234567" },
      })
    ).json();
    const ticket = (
      await app.app.inject({
        method: "POST",
        url: "/tickets",
        headers: bearer(token),
        payload: { contactId: contact.id, whatsappId: sim.whatsappId, status: "open" },
      })
    ).json();
    const refused = await app.app.inject({
      method: "GET",
      url: `/billing/${ticket.id}/customer?document=52998224725`,
      headers: bearer(token),
    });
    expect(refused.json(), JSON.stringify([contact, ticket, refused.json()])).toMatchObject({ error: "ERR_BILLING_AUTH" });
    sgp.knobs.slow.set("planoscontas", 1000);
    const test = await app.app.inject({
      method: "POST",
      url: "/billing/test",
      headers: bearer(token),
      payload: { token: `${SECRET}-typed` },
    });
    expect(test.json()).toMatchObject({ ok: false });
    expect(JSON.stringify(test.json())).not.toContain(SECRET);
    const log = lines.join("");
    expect(log).toContain("/billing/");
    expect(log).not.toContain(SECRET);
  });
});
