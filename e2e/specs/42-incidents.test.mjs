// Outage mode (issue 32 §1, §2): a supervisor opens an incident on the Incidentes screen; the agent's open
// inbox shows the banner at once (the socket), a customer who writes gets the notice once on the phone and
// the ticket is grouped under the incident (the filter chip with its count, the ticket's chip, its position in
// the queue); closing from the banner sends "normalizado" and the banner goes. Screenshots of the banner on
// the tickets screen, light and dark, at 1366 and 375 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, launch, settled, shot, unique } from "../lib/browser.mjs";
import { agentPage, createAgent, pairedSimulator, randomColor, ticketRow, until } from "../lib/conversation.mjs";

let browser;
let admin;
let sim;
let ana;
let sueli;
let incidentId;
const customers = [1, 2].map((i) => ({ number: `55117${String(Date.now()).slice(-7)}${i}`, name: unique(`Cliente ${i}`) }));
const NOTICE = "Identificamos uma falha na sua região e nossa equipe já está trabalhando para resolver. Não é preciso abrir chamado.";

before(async () => {
  browser = await launch();
  admin = await api();
  const queue = await admin.post("/queue", {
    name: unique("Suporte"),
    color: randomColor(),
    greetingMessage: "",
    positionNotice: { enabled: true, everyMinutes: 10 },
  });
  ana = await createAgent(admin, { name: unique("Ana"), queueIds: [queue.id] });
  sueli = await createAgent(admin, { name: unique("Sueli"), queueIds: [queue.id], profile: "superv" });
  sim = await pairedSimulator(admin, { name: unique("Fibra"), queueIds: [queue.id] });
  await admin.put(`/whatsapp/${sim.id}`, { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 10 });
  await admin.put(`/disparos/connections/${sim.id}`, { intervalMinMs: 0, intervalMaxMs: 0, pauseEvery: 0 });
});
after(async () => {
  // the server is shared with the other specs: no incident stays open
  for (const i of (await admin?.get("/incidents?status=open").catch(() => [])) ?? [])
    await admin.post(`/incidents/${i.id}/close`, {}).catch(() => undefined);
  await admin?.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  await browser?.close();
});

async function themed(page, name) {
  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    await page.setViewportSize({ width: 1366, height: 850 });
    await page.reload();
    await page.getByTestId("incident-banner").waitFor();
    await page.getByTestId("tab-waiting").click();
    await ticketRow(page, customers[0].name).waitFor();
    await settled(page);
    await shot(page, `${name}-${theme}-1366`);
    await page.setViewportSize({ width: 375, height: 760 });
    await settled(page);
    await shot(page, `${name}-${theme}-375`);
  }
  await admin.put("/settings/darkMode", { value: "disabled" });
  await page.setViewportSize({ width: 1366, height: 850 });
}

test("an incident opened on the Incidentes screen shows its banner live, notices customers once and groups their tickets", async () => {
  const agent = await agentPage(browser, ana);
  const superv = await agentPage(browser, sueli);
  await superv.goto("/incidents");
  await superv.getByTestId("incident-open").click();
  const dialog = superv.getByRole("dialog");
  await dialog.getByTestId("incident-title").fill("Rompimento de fibra no Centro");
  await dialog.getByTestId("incident-area").fill("Centro e Jardim América");
  // who gets the notice: every customer (the simulator's customers have no city the product can place)
  await dialog.getByTestId("incident-audience").getByLabel("Todos os clientes").check();
  await dialog.getByRole("button", { name: "Abrir" }).click();
  await superv.getByTestId("incident-row").filter({ hasText: "Rompimento de fibra no Centro" }).waitFor();
  // the agent's inbox, open all along, shows the banner without a reload
  const banner = agent.getByTestId("incident-banner");
  await banner.getByText("Incidente em andamento: Rompimento de fibra no Centro").waitFor();
  await banner.getByText(/Área: Centro e Jardim América/).waitFor();
  incidentId = (await admin.get("/incidents?status=open")).find((i) => i.title === "Rompimento de fibra no Centro").id;

  // two customers write (one twice): each phone shows the notice once
  for (const c of customers) await sim.say(c.number, "estou sem internet", c.name);
  await sim.say(customers[0].number, "alguém?", customers[0].name);
  for (const c of customers)
    await until(async () => (await sim.phone(c.number)).some((m) => m.fromMe && m.body === NOTICE), `the notice on ${c.name}'s phone`);
  const wrote = async (c) => (await sim.phone(c.number)).filter((m) => m.fromMe && m.body === NOTICE).length;
  await until(
    async () => (await sim.phone(customers[0].number)).filter((m) => m.fromMe && /º da fila/.test(m.body)).length > 0,
    "the position notice",
  );
  assert.equal(await wrote(customers[0]), 1);
  assert.equal(await wrote(customers[1]), 1);

  // the waiting list: each ticket says its incident and its place in the queue
  await agent.getByTestId("tab-waiting").click();
  const first = ticketRow(agent, customers[0].name);
  await first.getByTestId("ticket-incident").waitFor();
  assert.equal(await first.getByTestId("ticket-position").textContent(), "1º na fila");
  assert.equal(await ticketRow(agent, customers[1].name).getByTestId("ticket-position").textContent(), "2º na fila");

  // "Ver atendimentos": the lists filtered by the incident, with its count
  await banner.getByRole("button", { name: "Ver atendimentos" }).click();
  await agent.getByTestId("incident-filter").getByText("Incidente: Rompimento de fibra no Centro · 2 atendimento(s)").waitFor();

  await themed(agent, "incident-banner");
  await agent.context().close();
  await superv.context().close();
});

test("closing from the banner sends 'normalizado' once to each customer, finishes their tickets and takes the banner away", async () => {
  const superv = await agentPage(browser, sueli);
  const banner = superv.getByTestId("incident-banner");
  await banner.getByTestId("incident-close").click();
  const dialog = superv.getByRole("dialog");
  const normal = "✅ Normalizado: Rompimento de fibra no Centro. O serviço já foi restabelecido. Obrigado pela paciência!";
  assert.equal(await dialog.getByTestId("incident-close-message").inputValue(), normal);
  await dialog.getByTestId("incident-close-tickets").check();
  await dialog.getByRole("button", { name: "Encerrar" }).click();
  await banner.waitFor({ state: "detached" });
  for (const c of customers)
    await until(
      async () => (await sim.phone(c.number)).filter((m) => m.fromMe && m.body === normal).length === 1,
      `normalizado on ${c.name}'s phone`,
    );
  await until(
    async () => (await admin.get(`/tickets?incidentId=${incidentId}&showAll=true&status=pending`)).count === 0,
    "the tickets finished",
  );
  const closed = await admin.get(`/incidents/${incidentId}`);
  assert.equal(closed.status, "closed");
  assert.equal(closed.ticketCount, 2);
  await superv.context().close();
});
