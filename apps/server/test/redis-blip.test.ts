import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisTransport } from "../src/lib/cluster/bus.js";
import type { EventTransport } from "../src/lib/events.js";
import { eventually, listen, recorder, socketFor } from "./conversation-kit.js";
import { createTestApp, type TestApp } from "./helpers.js";

/**
 * After a Redis blip, screens catch up: events published while the event path was away never
 * arrive, so when it comes back the server tells every socket to read again (`resync`), and the
 * Redis connections' errors are handled (no "Unhandled error event"), logged once per outage.
 */

const hasRedisServer = spawnSync("sh", ["-c", "command -v redis-server"], { stdio: "ignore" }).status === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function startRedis(port: number): Promise<ChildProcess> {
  const proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "pipe",
  });
  return new Promise((resolve, reject) => {
    proc.stdout?.on("data", (d: Buffer) => {
      if (/Ready to accept connections/i.test(d.toString())) resolve(proc);
    });
    proc.once("exit", (code) => reject(new Error(`redis-server exited ${code}`)));
  });
}

const stop = (p: ChildProcess) =>
  new Promise<void>((resolve) => {
    p.once("exit", () => resolve());
    p.kill("SIGKILL");
  });

describe.skipIf(!hasRedisServer)("the Redis event path, when Redis goes away and comes back", () => {
  it("the transport says it is heard again, hears what is published after, and reports one error per outage", async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const client = new Redis(port, "127.0.0.1", { maxRetriesPerRequest: 1, retryStrategy: () => 100 });
    const errors: unknown[] = [];
    client.on("error", (err) => errors.push(err));
    const transport = redisTransport(client, "blip:events", (err) => errors.push(err));
    const heard: string[] = [];
    let resumed = 0;
    try {
      await transport.listen(
        (m) => heard.push(m),
        () => resumed++,
      );
      await transport.send("before");
      await eventually(() => heard.includes("before"), "the first event heard");

      await stop(redis);
      await eventually(() => errors.length > 0, "the outage reported");
      const reported = errors.length;
      redis = await startRedis(port);
      await eventually(() => resumed === 1, "the path said to be back");
      // the subscriber's own errors of that outage were reported once, not once per retry
      expect(errors.length - reported).toBeLessThanOrEqual(2);
      await transport.send("after");
      await eventually(() => heard.includes("after"), "an event after the blip heard");
    } finally {
      await transport.close();
      client.disconnect();
      await stop(redis);
    }
  });
});

describe("sockets are told to read again when the event path comes back", () => {
  let t: TestApp;
  let url: string;
  let resume: (() => void) | undefined;
  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t);
    // the bus on a transport this test drives (the Redis and PostgreSQL transports call onResume so)
    const transport: EventTransport = {
      send: async () => undefined,
      listen: async (_onMessage, onResume) => {
        resume = onResume;
      },
      close: async () => undefined,
    };
    await t.ctx.events.connect(transport);
  });
  afterAll(() => t.teardown());

  it("every socket of this process gets `resync`", async () => {
    const agent = await t.createUser({ name: "Agente" });
    const sockets = [await socketFor(url, t.adminToken), await socketFor(url, agent.token)];
    try {
      const heard = sockets.map((s) => recorder(s, "resync"));
      expect(resume).toBeDefined();
      resume?.();
      for (const h of heard) await h.waitFor(() => true);
    } finally {
      for (const s of sockets) s.close();
    }
  });
});
