// The outbox as an agent sees it: a message shows the clock while it waits for its turn, then the ticks; a number
// that refuses messages leaves it 'Não enviada' with 'Reenviar' (and the list says so); once allowed, Reenviar sends it
// once, with the id it was stored with. Screenshots of the failed message, light and dark, at 1366 and 375 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, launch, settled, shot, unique } from "../lib/browser.mjs";
import { agentPage, createAgent, pairedSimulator, randomColor, ticketRow, until } from "../lib/conversation.mjs";

let browser;
let admin;
let sim;
let ana;
let ticketId;
const customer = `55118${String(Date.now()).slice(-8)}`;
const customerName = unique("Carla Cliente");

before(async () => {
  browser = await launch();
  admin = await api();
  const queue = await admin.post("/queue", { name: unique("Suporte"), color: randomColor(), greetingMessage: "" });
  ana = await createAgent(admin, { name: unique("Ana"), queueIds: [queue.id] });
  sim = await pairedSimulator(admin, { name: unique("Fila"), queueIds: [queue.id] });
  // a long typing gap on this number: the second of two quick replies in one chat waits its turn (the clock)
  await admin.put(`/whatsapp/${sim.id}`, { replyGapMs: 3000 });
  await sim.say(customer, "oi, preciso da segunda via", customerName);
  const found = await until(async () => {
    const list = await admin.get(`/tickets?showAll=true&searchParam=${customer}`);
    return list.tickets.find((t) => t.contact.number === customer);
  }, "the customer's ticket");
  ticketId = found.id;
  await admin.put(`/tickets/${ticketId}`, { status: "open", userId: ana.id });
});
after(async () => {
  await admin?.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  await browser?.close();
});

const bubble = (page, text) => page.getByTestId("message").filter({ has: page.getByTestId("message-body").filter({ hasText: text }) });

test("a message shows the clock while it waits, then the ticks; a refused one shows 'Não enviada' and Reenviar sends it once allowed", async () => {
  const page = await agentPage(browser, ana);
  await page.goto(`/tickets/${ticketId}`);
  const input = page.getByTestId("message-input");
  await bubble(page, "oi, preciso da segunda via").waitFor();

  const say = async (text) => {
    await input.fill(text);
    await input.press("Enter");
    await until(async () => (await input.inputValue()) === "", "the input cleared after sending");
  };
  await say("Um momento, por favor.");
  await say("Já vou te enviar.");
  // the second waits for the chat's typing gap: the clock, then the ticks once the phone has it
  await bubble(page, "Já vou te enviar.").getByTestId("ack-0").waitFor();
  await bubble(page, "Já vou te enviar.").getByTestId("ack-2").waitFor({ timeout: 20_000 });

  // the customer's phone refuses messages from now on
  await admin.put(`/whatsapp/${sim.id}`, { replyGapMs: 0 });
  await admin.put(`/simulator/api/connections/${sim.id}/chats/${customer}/refused`, { refused: true });
  await say("Segue a sua fatura.");
  const failed = bubble(page, "Segue a sua fatura.");
  await failed.getByTestId("message-failed").getByText("Não enviada").waitFor();
  await failed.getByTestId("ack-failed").waitFor();
  await ticketRow(page, customerName).getByTestId("ticket-failed").waitFor();
  assert.equal((await sim.phone(customer)).filter((m) => m.body.includes("Segue a sua fatura.")).length, 0);

  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    await page.reload();
    await failed.getByTestId("message-failed").waitFor();
    await settled(page);
    await shot(page, `outbox-failed-${theme}-1366`);
    await page.setViewportSize({ width: 375, height: 760 });
    await settled(page);
    await shot(page, `outbox-failed-${theme}-375`);
    await page.setViewportSize({ width: 1366, height: 850 });
  }
  await admin.put("/settings/darkMode", { value: "disabled" });

  // allowed again: Reenviar sends it, once, with the id it was stored with
  await admin.put(`/simulator/api/connections/${sim.id}/chats/${customer}/refused`, { refused: false });
  await failed.getByRole("button", { name: "Reenviar" }).click();
  await failed.getByTestId("ack-2").waitFor({ timeout: 20_000 });
  await failed.getByTestId("message-failed").waitFor({ state: "detached" });
  const received = (await sim.phone(customer)).filter((m) => m.fromMe && m.body.includes("Segue a sua fatura."));
  assert.equal(received.length, 1);
  const stored = (await admin.get(`/messages/${ticketId}`)).messages.find((m) => m.body.includes("Segue a sua fatura."));
  assert.equal(received[0].id, stored.wid);
  await ticketRow(page, customerName).getByTestId("ticket-failed").waitFor({ state: "detached" });
});
