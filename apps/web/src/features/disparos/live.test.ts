import type { DisparoStats } from "@balcao/contract";
import { QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { answer, cacheUnderTest } from "../../lib/query-testing";
import { disparosLive, statsQuery } from "./api/disparos";

// The cards' counts while a campaign sends: the events carry counts, reads of GET /disparos/stats
// run beside them, and whatever order they land in, the cards end on the server's last counts.

const stats = (enviado: number, aEnviar: number, comErro = 0): DisparoStats => ({
  cancelado: 2,
  "a enviar": aEnviar,
  "com erro": comErro,
  enviado,
  enviando: 0,
});

/** GET /disparos/stats held open until the test answers it, as a slow server would. */
function slowServer() {
  const reads: { answer: (s: DisparoStats) => void; signal: AbortSignal }[] = [];
  const queryFn = ({ signal }: { signal: AbortSignal }) =>
    new Promise<DisparoStats>((resolve) => {
      reads.push({ answer: resolve, signal });
    });
  return { reads, queryFn };
}

const t = cacheUnderTest();

async function screen() {
  const server = slowServer();
  // the screen's cards observe the counts (an active query: invalidation reads it again)
  const observer = new QueryObserver(t.client, { queryKey: statsQuery.queryKey, queryFn: server.queryFn });
  t.stops.push(observer.subscribe(() => undefined));
  await vi.advanceTimersByTimeAsync(0);
  await answer(server.reads[0], stats(16, 2, 2));
  expect(t.client.getQueryData(statsQuery.queryKey)).toEqual(stats(16, 2, 2));
  return server;
}

/** A bulk action answered: it reads everything again (the read stays open until answered). */
async function bulkActionRead() {
  void t.client.invalidateQueries({ queryKey: ["disparos"] });
  await vi.advanceTimersByTimeAsync(0);
}

describe("the Disparos cards beside a read already under way", () => {
  it("a read that started before the last events and lands after them is replaced by the read after the last event", async () => {
    const server = await screen();
    const live = disparosLive(t.client);
    // 'Reiniciar com erro' answered: the bulk action reads everything again (the two rows are 'a enviar' by then)
    await bulkActionRead();
    expect(server.reads).toHaveLength(2);
    // the two restarted rows go out before that read is answered: their events land first
    live.update({ action: "update", stats: stats(17, 1) });
    live.update({ action: "update", stats: stats(18, 0) });
    expect(t.client.getQueryData(statsQuery.queryKey)).toEqual(stats(18, 0));
    // the slow read answers what it read before the sends: the cards go back in time for a moment
    await answer(server.reads[1], stats(16, 2));
    expect(t.client.getQueryData(statsQuery.queryKey)).toEqual(stats(16, 2));
    // half a second after the first event the counts are read again, after the last event
    await vi.advanceTimersByTimeAsync(500);
    expect(server.reads).toHaveLength(3);
    await answer(server.reads[2], stats(18, 0));
    expect(t.client.getQueryData(statsQuery.queryKey)).toEqual(stats(18, 0));
    live.dispose();
  });

  it("a read still under way when the trailing read starts is cancelled and cannot land after it", async () => {
    const server = await screen();
    const live = disparosLive(t.client);
    await bulkActionRead();
    live.update({ action: "update", stats: stats(18, 0) });
    await vi.advanceTimersByTimeAsync(500);
    expect(server.reads).toHaveLength(3);
    expect(server.reads[1].signal.aborted).toBe(true);
    server.reads[2].answer(stats(18, 0));
    await answer(server.reads[1], stats(16, 2));
    expect(t.client.getQueryData(statsQuery.queryKey)).toEqual(stats(18, 0));
    live.dispose();
  });

  it("a burst of events reads again once, and an alert names its connection", async () => {
    const server = await screen();
    const alerts: number[] = [];
    const live = disparosLive(t.client, (id) => alerts.push(id));
    for (let n = 17; n <= 20; n++) live.update({ action: "update", stats: stats(n, 20 - n) });
    live.update({ action: "update", stats: stats(20, 0, 5), alert: { whatsappId: 7, reason: "falhas" } });
    await vi.advanceTimersByTimeAsync(500);
    expect(server.reads).toHaveLength(2);
    expect(alerts).toEqual([7]);
    // disposed (the screen left): no read after it
    live.update({ action: "update", stats: stats(20, 0, 6) });
    live.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.reads).toHaveLength(2);
  });
});
