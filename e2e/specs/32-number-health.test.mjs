// Number health on the connections screen: the panel on a card (unsolicited sends today against the
// warm-up's cap, failures, drops, pairing age), a phone logout pausing the number live (toast, the
// pause with 'Retomar envios', the backup carrying the sends), resuming, the dialog's health
// section, and screenshots of the panel in both themes at 1366 and 375 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, BASE, launch, newPage, settled, shot, signIn, toast, unique, within } from "../lib/browser.mjs";

let browser;
let admin;
const created = [];

/** Pairs a simulator connection the way the simulator page does: its current QR code is "scanned". */
async function pair(id) {
  const find = async () => (await admin.get("/simulator/api/connections")).find((x) => x.id === id);
  let c = await find();
  if (c.status !== "qrcode") {
    await admin.post(`/whatsappsession/${id}`);
    c = await until(find, (x) => x.status === "qrcode" || x.status === "CONNECTED", "a QR code");
  }
  // a session restarted with its credentials kept (after a 403) connects without a QR code
  if (c.status === "CONNECTED") return;
  await admin.post(`/simulator/api/connections/${id}/scan`, { qrcode: c.qrcode });
}

/** 'Retomar envios' through the API, then paired again: the number sends as usual. */
async function resumeAndPair(id) {
  await admin.post(`/whatsapp/${id}/health/resume`);
  await pair(id);
  await until(
    () => admin.get(`/whatsapp/${id}/health`),
    (h) => !h.paused,
    "resumed and paired",
  );
}

async function pairedSimulator(name, extra = {}) {
  const w = await admin.post("/simulator/api/connections", { name });
  created.push(w.id);
  if (Object.keys(extra).length) await admin.put(`/whatsapp/${w.id}`, extra);
  await pair(w.id);
  return w;
}

async function sendByApi(token, number, body) {
  const r = await fetch(`${BASE}/api/messages/send`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ number, body }),
  });
  assert.equal(r.status, 200, await r.text());
}

async function until(read, ok, what, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

before(async () => {
  browser = await launch();
  admin = await api();
});
after(async () => {
  await admin.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  for (const id of created) await admin.delete(`/whatsapp/${id}`).catch(() => undefined);
  await browser?.close();
});

const card = (page, name) => page.getByTestId("connection-card").filter({ has: page.getByRole("heading", { name, exact: true }) });

let main;
let backup;

test("the health panel: sends today against the daily cap (a simulator is not warmed up); a phone logout pauses the number live, the backup carries its sends, 'Retomar envios' resumes", async () => {
  backup = await pairedSimulator(unique("Reserva"));
  main = await pairedSimulator(unique("Principal"), { backupWhatsappId: backup.id, warmupEnabled: true, dailyCap: 500 });
  const { token } = await admin.post(`/whatsapp/${main.id}/token`);
  for (let i = 0; i < 3; i++) await sendByApi(token, `5511955${String(Date.now() + i).slice(-6)}`, "Sua fatura vence amanhã");
  await until(
    () => admin.get(`/whatsapp/${main.id}/health`),
    (h) => h.sentToday === 3,
    "three sends counted",
  );

  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  await page.goto("/connections");
  const panel = card(page, main.name).getByTestId("health-panel");
  await panel.waitFor();
  await within(panel.getByTestId("health-sent").filter({ hasText: "3 de 500" }).waitFor(), 10_000, "3 de 500");
  // warm-up on, paired by QR code today: the simulator is not warmed up (no real number to protect)
  assert.equal(await panel.getByTestId("health-warmup").count(), 0);
  assert.equal(await panel.getByTestId("health-backup").textContent(), `Conexão reserva: ${backup.name}`);

  // the phone unlinks the device: the card follows live
  await admin.post(`/simulator/api/connections/${main.id}/unlink`, { reason: "loggedOut" });
  await within(panel.getByTestId("health-paused").waitFor(), 10_000, "the pause on the card");
  assert.match(await panel.getByTestId("health-paused").textContent(), /Envios automáticos pausados: Sessão encerrada no celular/);
  await panel.getByTestId("health-backup-active").waitFor();
  assert.equal(
    await panel.getByTestId("health-backup-active").textContent(),
    `Envios automáticos indo pela conexão reserva ${backup.name}.`,
  );
  const alert = toast(page, `Os envios automáticos de ${main.name} foram pausados: Sessão encerrada no celular.`);
  await alert.waitFor();
  assert.equal(await alert.count(), 1, "one alert, not one per listener");
  await panel.getByTestId("health-disconnects").filter({ hasText: "1" }).waitFor();
  // the alert outlives an ordinary toast (3 s) that came after it: it stays until the number is resumed or it is closed
  await card(page, main.name)
    .getByRole("button", { name: `Editar ${main.name}` })
    .click();
  await page.getByRole("dialog").getByRole("button", { name: "Salvar" }).click();
  const saved = toast(page, "Conexão salva com sucesso!");
  await saved.waitFor();
  await saved.waitFor({ state: "detached" });
  assert.equal(await alert.count(), 1, "the pause alert is still on screen");

  await panel.getByRole("button", { name: "Retomar envios" }).click();
  await toast(page, "Envios automáticos retomados.").waitFor();
  // resumed: its alert is over
  await alert.waitFor({ state: "detached" });
  await panel.getByTestId("health-paused").waitFor({ state: "detached" });
  assert.equal((await admin.get(`/whatsapp/${main.id}/health`)).paused, false);
  await page.context().close();

  // paired again, then refused by WhatsApp (403): paused again, for the screenshots
  await pair(main.id);
  await admin.post(`/simulator/api/connections/${main.id}/unlink`, { reason: "forbidden" });
  await until(
    () => admin.get(`/whatsapp/${main.id}/health`),
    (h) => h.paused && h.pausedReason === "forbidden",
    "the 403 pause",
  );
});

test("the connection dialog's health section: backup, daily cap, warm-up", async () => {
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  await page.goto("/connections");
  await card(page, main.name)
    .getByRole("button", { name: `Editar ${main.name}` })
    .click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Limite diário de envios automáticos").waitFor();
  assert.equal(await dialog.getByLabel("Limite diário de envios automáticos").inputValue(), "500");
  await dialog.getByLabel("Limite diário de envios automáticos").fill("800");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await toast(page, "Conexão salva com sucesso!").waitFor();
  assert.equal((await admin.get(`/whatsapp/${main.id}`)).dailyCap, 800);
  assert.equal((await admin.get(`/whatsapp/${main.id}`)).backupWhatsappId, backup.id);
  await page.context().close();
});

test("the pause alert reaches an admin on any screen: 'Ver conexões' opens the connections, 'Fechar' closes it", async () => {
  await resumeAndPair(main.id);
  const text = `Os envios automáticos de ${main.name} foram pausados: Sessão encerrada no celular.`;
  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      const page = await newPage(browser, { width, height: width === 375 ? 760 : 800 });
      await signIn(page); // lands on the tickets screen, its socket in its rooms
      assert.match(new URL(page.url()).pathname, /^\/tickets/);
      await admin.post(`/simulator/api/connections/${main.id}/unlink`, { reason: "loggedOut" });
      const alert = page.locator("#notistack-snackbar", { hasText: text }).locator("..");
      await within(alert.waitFor(), 10_000, "the pause alert on the tickets screen");
      await settled(page);
      await shot(page, `number-health-alert-${width}-${theme}`);
      if (theme === "light" && width === 1366) {
        await alert.getByRole("button", { name: "Ver conexões" }).click();
        await page.waitForURL(/\/connections$/);
        await card(page, main.name).getByTestId("health-paused").waitFor();
        await alert.waitFor({ state: "detached" });
      } else {
        await alert.getByRole("button", { name: "Fechar" }).click();
        await alert.waitFor({ state: "detached" });
      }
      await page.context().close();
      await resumeAndPair(main.id);
    }
  }
  await admin.put("/settings/darkMode", { value: "disabled" });
  // paused again (403) for the panel's screenshots below
  await admin.post(`/simulator/api/connections/${main.id}/unlink`, { reason: "forbidden" });
  await until(
    () => admin.get(`/whatsapp/${main.id}/health`),
    (h) => h.paused && h.pausedReason === "forbidden",
    "the 403 pause",
  );
});

test("screenshots: the health panel, light and dark at 1366 and 375 px", async () => {
  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      const page = await newPage(browser, { width, height: width === 375 ? 760 : 800 });
      await signIn(page);
      await page.goto("/connections");
      const c = card(page, main.name);
      await c.getByTestId("health-panel").waitFor();
      await c.getByTestId("health-sent").waitFor();
      await c.scrollIntoViewIfNeeded();
      await settled(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
      await shot(page, `number-health-${width}-${theme}`);
      await c.getByTestId("health-panel").screenshot({ path: `e2e/screenshots/number-health-panel-${width}-${theme}.png` });

      // the dialog's health section
      await c.getByRole("button", { name: `Editar ${main.name}` }).click();
      const backupField = page.getByRole("dialog").getByLabel("Conexão reserva");
      await backupField.waitFor();
      await backupField.scrollIntoViewIfNeeded();
      await settled(page);
      await shot(page, `number-health-form-${width}-${theme}`);
      await page.context().close();
    }
  }
});
