import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createQueue, pairedSimulator, type SimConnection } from "./conversation-kit.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * Deleting an agent or a queue changes tickets through the transition like every other change:
 * each ticket gets its history row, naming the admin who deleted and why.
 */

let t: TestApp;
let sim: SimConnection;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  const q = await createQueue(t, "Suporte");
  sim = await pairedSimulator(t, { queueIds: [q] });
});
afterAll(() => t.teardown());

async function openTicket(queueId: number, userId: number) {
  const number = `55479${String(4000000 + ++seq * 53).padStart(8, "0")}`;
  const contact = (await api(t, t.adminToken, "POST", "/contacts", { name: `Cliente ${seq}`, number })).body;
  const res = await api(t, t.adminToken, "POST", "/tickets", {
    contactId: contact.id,
    whatsappId: sim.whatsappId,
    queueId,
    status: "open",
    userId,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as number;
}

const historyOf = async (ticketId: number) =>
  (
    await t.ctx.db.execute<{
      reason: string;
      actor: string;
      actor_user_id: number | null;
      from_status: string;
      to_status: string;
      queue_id: number | null;
    }>(
      sql`select reason, actor, actor_user_id, from_status, to_status, queue_id from ticket_history where ticket_id = ${ticketId} order by id`,
    )
  ).rows;

describe("deletions go through the ticket transition", () => {
  it("an agent deleted: their open tickets wait again, nobody's, each with a history row naming the admin", async () => {
    const queue = await createQueue(t, "Financeiro");
    const agent = await t.createUser({ name: "Agente que sai", queueIds: [queue] });
    const a = await openTicket(queue, agent.id);
    const b = await openTicket(queue, agent.id);
    expect((await api(t, t.adminToken, "DELETE", `/users/${agent.id}`)).status).toBe(200);
    for (const id of [a, b]) {
      expect((await api(t, t.adminToken, "GET", `/tickets/${id}`)).body).toMatchObject({ status: "pending", userId: null, queueId: queue });
      expect((await historyOf(id)).at(-1)).toMatchObject({
        reason: "userDeleted",
        actor: "user",
        actor_user_id: 1,
        from_status: "open",
        to_status: "pending",
      });
    }
  });

  it("a queue deleted: its tickets keep their status without a queue, each with a history row", async () => {
    const queue = await createQueue(t, "Comercial");
    const agent = await t.createUser({ name: "Agente comercial", queueIds: [queue] });
    const id = await openTicket(queue, agent.id);
    expect((await api(t, t.adminToken, "DELETE", `/queue/${queue}`)).status).toBe(200);
    expect((await api(t, t.adminToken, "GET", `/tickets/${id}`)).body).toMatchObject({ status: "open", userId: agent.id, queueId: null });
    expect((await historyOf(id)).at(-1)).toMatchObject({
      reason: "queueDeleted",
      actor: "user",
      actor_user_id: 1,
      to_status: "open",
      queue_id: null,
    });
    expect((await api(t, t.adminToken, "DELETE", `/queue/${queue}`)).status).toBe(404);
  });
});
