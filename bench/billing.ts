/**
 * Billing integration (issue 21): what a lookup costs and what "billing down" costs the caller.
 * Prints figures; asserts nothing.   npx tsx bench/billing.ts   (from the repository root)
 * - static PIX BR Code + its QR PNG, per invoice;
 * - findByDocument + openInvoices against a local fake SGP: uncached, then from the 60 s cache;
 * - a billing system that hangs: calls while the circuit is closed (timeout × attempts), then once open.
 */
import { performance } from "node:perf_hooks";
import { buildBrCode } from "../apps/server/src/lib/pix-brcode.js";
import { realClock } from "../apps/server/src/lib/pace.js";
import { qrPng } from "../apps/server/src/modules/billing/compose.js";
import { BillingRegistry } from "../apps/server/src/modules/billing/registry.js";
import { SGP_APP, SGP_TOKEN, startFakeSgp } from "../apps/server/test/fakes/sgp.js";
import { fmt, summarize } from "./stats.js";

async function time(n: number, fn: (i: number) => Promise<unknown> | unknown) {
  const samples: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn(i);
    samples.push(performance.now() - s);
  }
  return summarize(samples, (performance.now() - t0) / 1000);
}

const pix = await time(300, (i) =>
  qrPng(
    buildBrCode({ key: "12345678000195", merchantName: "Provedor Exemplo", merchantCity: "Chapecó", amount: 89.9 + i, txid: `FAT${i}` }),
  ),
);
console.log(`PIX BR Code + QR PNG          ${fmt(pix)}`);

const sgp = await startFakeSgp();
const settings = { system: "SGP" as const, url: sgp.url, app: SGP_APP, token: SGP_TOKEN, unlockDays: 0 };
const uncached = await time(200, async () => {
  const b = new BillingRegistry(realClock).build(settings, true);
  const [c] = await b.findByDocument("52998224725");
  await b.openInvoices(c);
});
console.log(`lookup + invoices, uncached   ${fmt(uncached)}`);
const live = new BillingRegistry(realClock).build(settings);
const cached = await time(2000, async () => {
  const [c] = await live.findByDocument("52998224725");
  await live.openInvoices(c);
});
console.log(`lookup + invoices, cached     ${fmt(cached)}`);

sgp.knobs.slow.set("consultacliente", 60_000);
const http = { timeoutMs: 1000, attempts: 2, backoffMs: 100, breakerThreshold: 3, breakerCooldownMs: 30_000 };
const down = new BillingRegistry(realClock, http).build(settings);
const closed = await time(3, () => down.findByDocument("11144477735").catch(() => undefined));
console.log(`billing hangs, circuit closed ${fmt(closed)}  (timeout ${http.timeoutMs} ms × ${http.attempts} attempts)`);
const open = await time(1000, (i) => down.findByDocument(`1114447773${i % 10}`).catch(() => undefined));
console.log(`billing hangs, circuit open   ${fmt(open)}`);
await sgp.close();
