// What the one server sends a browser besides the app's screens: the simulator page and the API
// reference (server-rendered, not swallowed by the app's router), the app at / for any client that
// does not ask for JSON, and the app's JavaScript and CSS compressed.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, BASE, launch, newPage, shot, signIn, unique } from "../lib/browser.mjs";

let browser;
let admin;
const created = [];

before(async () => {
  browser = await launch();
  admin = await api();
});
after(async () => {
  for (const id of created) await admin.delete(`/whatsapp/${id}`).catch(() => undefined);
  await browser?.close();
});

test("'Abrir o simulador' in a simulated connection's QR dialog opens the simulator page", async () => {
  const name = unique("Loja Simulada");
  const w = await admin.post("/simulator/api/connections", { name });
  created.push(w.id);

  const page = await newPage(browser, { width: 1366, height: 800 });
  await signIn(page);
  await page.goto("/connections");
  const card = page.getByTestId("connection-card").filter({ has: page.getByRole("heading", { name, exact: true }) });
  await card.getByRole("button", { name: "QR Code" }).click();
  const dialog = page.getByRole("dialog");
  const [simulator] = await Promise.all([
    page.context().waitForEvent("page"),
    dialog.getByRole("link", { name: "Abrir o simulador" }).click(),
  ]);
  await simulator.waitForLoadState("domcontentloaded");
  assert.equal(new URL(simulator.url()).pathname, "/simulator");
  assert.equal(await simulator.title(), "Balcão — Simulador de WhatsApp");
  // the page reuses the app's session and lists the connection
  await simulator.getByText(name).first().waitFor();
  await shot(simulator, "simulator-1366");
  await page.context().close();
});

test("typing /simulator or /api-docs in the address bar gets the server's pages", async () => {
  const page = await newPage(browser);
  const sim = await page.goto("/simulator");
  assert.equal(sim?.status(), 200);
  assert.equal(await page.title(), "Balcão — Simulador de WhatsApp");
  const docs = await page.goto("/api-docs");
  assert.equal(docs?.status(), 200);
  await page.getByText("Balcão API").first().waitFor();
  assert.equal(await page.locator("#root").count(), 0, "not the app's page");
  await page.context().close();
});

test("GET / answers the app to any client that does not ask for JSON (curl sends */*)", async () => {
  for (const accept of ["*/*", undefined]) {
    const res = await fetch(`${BASE}/`, { headers: accept ? { accept } : {} });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(await res.text(), /<div id="root"><\/div>/);
  }
  const json = await fetch(`${BASE}/`, { headers: { accept: "application/json" } });
  assert.equal(json.status, 404);
});

test("the sign-in page's JavaScript and CSS arrive compressed, hashed files cached for good", async () => {
  const page = await newPage(browser);
  const assets = [];
  page.on("response", (r) => {
    if (new URL(r.url()).pathname.startsWith("/assets/") && ["script", "stylesheet"].includes(r.request().resourceType())) assets.push(r);
  });
  await page.goto("/login");
  await page.getByRole("button", { name: "Entrar" }).waitFor();
  assert.ok(assets.length > 0, "the sign-in page loads scripts from /assets");
  let wire = 0;
  let decoded = 0;
  for (const r of assets) {
    const h = r.headers();
    const body = await r.body();
    assert.equal(h["cache-control"], "public, max-age=31536000, immutable", r.url());
    assert.match(h.vary ?? "", /accept-encoding/i, r.url());
    if (body.length < 1024) continue; // too small to be worth compressing
    assert.match(h["content-encoding"] ?? "", /^(br|gzip)$/, `${r.url()} sent without Content-Encoding`);
    wire += (await r.request().sizes()).responseBodySize;
    decoded += body.length;
  }
  assert.ok(wire < decoded / 2, `compressed ${wire} B of ${decoded} B`);
  await page.context().close();
});
