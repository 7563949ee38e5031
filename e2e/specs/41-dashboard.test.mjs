// The dashboard (issue 17): a supervisor watches /dashboard while simulated customers write, agents
// accept, reply and finish; the cards, the waiting panel and the first-response time follow live.
// Agents are refused. Screenshots in both themes at 1366 and 375 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, BASE, launch, newPage, settled, shot, signIn, unique } from "../lib/browser.mjs";
import { createAgent, pairedSimulator, randomColor, until } from "../lib/conversation.mjs";

let browser;
let admin;
let sim;
let queue;
let ana;
let beto;
let sueli;

/** API calls as one user (the agents act through the API; the supervisor watches in the browser). */
async function as(user) {
  const r = await fetch(`${BASE}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const { token } = await r.json();
  return async (method, path, body) => {
    const res = await fetch(`${BASE}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

before(async () => {
  browser = await launch();
  admin = await api();
  queue = await admin.post("/queue", { name: unique("Suporte"), color: randomColor(), greetingMessage: "" });
  ana = await createAgent(admin, { name: unique("Ana"), queueIds: [queue.id] });
  beto = await createAgent(admin, { name: unique("Beto"), queueIds: [queue.id] });
  sueli = await createAgent(admin, { name: unique("Sueli"), queueIds: [queue.id], profile: "superv" });
  sim = await pairedSimulator(admin, { name: unique("Fibra"), queueIds: [queue.id] });
});
after(async () => {
  await admin?.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  await browser?.close();
});

const cardCount = async (page, card) =>
  Number(
    (await page.locator(`[data-testid=dashboard-card][data-card=${card}] [data-testid=dashboard-card-count]`).textContent()).replace(
      /\D/g,
      "",
    ),
  );

async function ticketOf(number) {
  return until(async () => {
    const r = await admin.get(`/tickets?showAll=true&searchParam=${number}&status=pending`);
    return r.tickets.find((t) => t.contact.number === number);
  }, `the ticket of ${number}`);
}

/** Customer writes; the agent accepts, replies and (unless `keepOpen`) finishes. */
async function conversation(agent, number, { keepOpen = false } = {}) {
  await sim.say(number, "Oi, minha internet caiu", `Cliente ${number.slice(-4)}`);
  const ticket = await ticketOf(number);
  const call = await as(agent);
  await call("PUT", `/tickets/${ticket.id}`, { status: "open", userId: agent.id });
  await call("POST", `/messages/${ticket.id}`, { body: "Olá! Vou verificar a sua conexão." });
  if (!keepOpen) await call("PUT", `/tickets/${ticket.id}`, { status: "closed" });
  return ticket;
}

test("an agent does not get the dashboard, in the drawer or by its address", async () => {
  const page = await newPage(browser);
  await signIn(page, ana);
  assert.equal(await page.getByRole("link", { name: "Dashboard" }).count(), 0);
  await page.goto("/dashboard");
  await page.waitForURL("**/tickets");
  await page.context().close();
});

test("a supervisor watches a conversation arrive, be answered and finished", async () => {
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page, sueli);
  await page.getByRole("link", { name: "Dashboard" }).click();
  await page.waitForURL("**/dashboard");
  await page.getByTestId("dashboard-card").first().waitFor();
  const today = await cardCount(page, "today");
  const total = await cardCount(page, "total");

  // a customer writes: the cards and the waiting panel follow without a reload
  const number = `55119${String(Date.now()).slice(-8)}`;
  await sim.say(number, "Boa tarde, estou sem sinal", "Cliente Espera");
  await until(async () => (await cardCount(page, "today")) === today + 1, "the 'today' card counting the new ticket");
  assert.equal(await cardCount(page, "total"), total + 1);
  await page.getByTestId("live-waiting").filter({ hasText: queue.name }).waitFor();

  // Ana accepts it, replies and finishes: her first-response time shows in the table
  const ticket = await ticketOf(number);
  const call = await as(ana);
  await call("PUT", `/tickets/${ticket.id}`, { status: "open", userId: ana.id });
  await call("POST", `/messages/${ticket.id}`, { body: "Olá! Já estou verificando." });
  await call("PUT", `/tickets/${ticket.id}`, { status: "closed" });
  const anaRow = page.getByTestId("times-by-agent").getByTestId("times-row").filter({ hasText: ana.name });
  await anaRow.waitFor();
  const frt = (await anaRow.getByTestId("frt-median").textContent()).trim();
  assert.match(frt, /^\d+ (s|min)$/, `a first-response time for Ana: ${frt}`);
  assert.match((await anaRow.getByTestId("res-median").textContent()).trim(), /^\d+ (s|min)$/);
  await until(async () => (await page.getByTestId("live-waiting").filter({ hasText: queue.name }).count()) === 0, "nobody waiting");

  // more of a day's work for the pictures: Beto's, one still open, one waiting
  await conversation(beto, `55118${String(Date.now()).slice(-8)}`);
  await conversation(ana, `55117${String(Date.now()).slice(-8)}`, { keepOpen: true });
  await sim.say(`55116${String(Date.now()).slice(-8)}`, "Alguém aí?", "Cliente Aguardando");
  await page.getByTestId("live-waiting").filter({ hasText: queue.name }).waitFor();
  await page.getByTestId("times-by-agent").getByTestId("times-row").filter({ hasText: beto.name }).waitFor();

  // the top agents' period select
  await page.getByTestId("dashboard-top-agents").getByRole("combobox").click();
  await page.getByRole("option", { name: "Hoje" }).click();
  await page.getByTestId("dashboard-top-agents").locator("svg").first().waitFor();

  // the CSV of the per-agent table
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("times-csv").click()]);
  const csv = await (await download.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString("utf8");
  assert.ok(text.includes(ana.name) && text.includes(beto.name), `the CSV lists the agents: ${text.slice(0, 200)}`);

  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.reload();
      await page.getByTestId("dashboard-card").first().waitFor();
      await page.getByTestId("times-row").first().waitFor();
      await settled(page);
      await shot(page, `dashboard-${width}-${theme}`);
      await page.getByTestId("dashboard-times").scrollIntoViewIfNeeded();
      await settled(page);
      await shot(page, `dashboard-times-${width}-${theme}`);
      await page.getByTestId("dashboard-heatmap").scrollIntoViewIfNeeded();
      await settled(page);
      await shot(page, `dashboard-heatmap-${width}-${theme}`);
      if (width === 375) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 1, `nothing wider than the screen at 375 px (${overflow} px more)`);
      }
    }
  }
  await page.context().close();
});

/** The bottom edge of `testId` is inside the window (the panel was reached, not merely touched). */
const seenWhole = (page, testId) =>
  page.getByTestId(testId).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight + 1;
  });

test("the dashboard scrolls to its last panel by wheel and by keyboard, at 1366×768 and 375 px", async () => {
  const page = await newPage(browser, { width: 1366, height: 768 });
  await signIn(page, sueli);
  for (const [width, height] of [
    [1366, 768],
    [375, 812],
  ]) {
    await page.setViewportSize({ width, height });
    await page.goto("/dashboard");
    await page.getByTestId("dashboard-server").waitFor();
    await settled(page);
    assert.equal(await seenWhole(page, "dashboard-server"), false, `at ${width} px the server panel starts below the fold`);

    // by wheel, over the page's content
    const title = page.getByRole("heading", { name: "Dashboard" }).first();
    const box = await title.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height + 40);
    for (let i = 0; i < 30 && !(await seenWhole(page, "dashboard-server")); i++) {
      await page.mouse.wheel(0, 400);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    assert.ok(await seenWhole(page, "dashboard-server"), `at ${width} px the wheel reaches the server panel`);

    // by keyboard: a click on the page's text, then End
    await page.reload();
    await page.getByTestId("dashboard-server").waitFor();
    await settled(page);
    assert.equal(await seenWhole(page, "dashboard-server"), false);
    await page.getByTestId("dashboard-period").click();
    await page.keyboard.press("End");
    await until(() => seenWhole(page, "dashboard-server"), `at ${width} px the End key to bring the server panel into view`);
    await settled(page);
    await shot(page, `dashboard-bottom-${width}-light`);
  }
  // the bottom in the dark theme
  try {
    await admin.put("/settings/darkMode", { value: "enabled" });
    for (const [width, height] of [
      [1366, 768],
      [375, 812],
    ]) {
      await page.setViewportSize({ width, height });
      await page.reload();
      await page.getByTestId("dashboard-server").waitFor();
      await page.getByTestId("dashboard-period").click();
      await page.keyboard.press("End");
      await until(() => seenWhole(page, "dashboard-server"), "the server panel in view");
      await settled(page);
      await shot(page, `dashboard-bottom-${width}-dark`);
    }
  } finally {
    await admin.put("/settings/darkMode", { value: "disabled" });
  }
  await page.context().close();
});
