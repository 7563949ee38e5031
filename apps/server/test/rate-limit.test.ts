import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../src/config.js";
import { MemoryStore } from "../src/lib/cluster/store.js";
import { backoffSeconds, LoginThrottle } from "../src/lib/login-throttle.js";
import { createTestApp, type TestApp } from "./helpers.js";

/** Issue 12, item 15: brute force is held back per (IP, e-mail) with exponential backoff; the real user is not locked out. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_PER_EMAIL: "3", LOGIN_RATE_PER_IP: "8", LOGIN_RATE_WINDOW_S: "600" });
});
afterAll(() => t.teardown());

const attempt = (email: string, password: string, ip = "10.0.0.1") =>
  t.app.inject({ method: "POST", url: "/auth/login", payload: { email, password }, remoteAddress: ip });

describe("login limits", () => {
  it("a guesser's address waits after its free failures, while the real user signs in from an address that never failed", async () => {
    const victim = await t.createUser({ password: "right-pass" });
    for (let i = 0; i < 3; i++) expect((await attempt(victim.email, "wrong", "10.1.0.1")).statusCode).toBe(401);
    const held = await attempt(victim.email, "right-pass", "10.1.0.1");
    expect(held.statusCode).toBe(429);
    expect(held.json()).toEqual({ error: "ERR_TOO_MANY_REQUESTS" });
    expect(Number(held.headers["retry-after"])).toBeGreaterThan(0);
    // the same account from elsewhere goes through
    expect((await attempt(victim.email, "right-pass", "10.1.0.2")).statusCode).toBe(200);
    // and the guesser's address may still sign in to other accounts
    expect((await attempt(DEMO_ADMIN.email, DEMO_ADMIN.password, "10.1.0.1")).statusCode).toBe(200);
  });

  it("an office behind one address is not blocked by someone's typos", async () => {
    const typo = await t.createUser({ password: "typo-pass" });
    const colleague = await t.createUser({ password: "other-pass" });
    for (let i = 0; i < 3; i++) await attempt(typo.email, "oops", "10.2.0.1");
    expect((await attempt(colleague.email, "other-pass", "10.2.0.1")).statusCode).toBe(200);
  });

  it("an address failing against many accounts (spraying) is capped", async () => {
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await attempt(`someone${i}@x.com`, "x", "10.9.9.9")).statusCode);
    expect(codes.slice(0, 8).every((c) => c === 401)).toBe(true);
    expect(codes.slice(8)).toEqual([429, 429]);
    expect((await attempt(DEMO_ADMIN.email, DEMO_ADMIN.password, "10.9.9.10")).statusCode).toBe(200);
  });
});

describe("the backoff", () => {
  const policy = { freeFailures: 3, baseDelayS: 2, maxDelayS: 900, ipFailures: 1000, windowS: 600 };

  it("doubles with each failure past the free ones, up to the cap", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((n) => backoffSeconds(n, policy))).toEqual([0, 0, 0, 2, 4, 8, 16, 900]);
  });

  it("a success clears the pair; other pairs never waited", async () => {
    let now = 1_000_000;
    const th = new LoginThrottle(policy, new MemoryStore(() => now));
    for (let i = 0; i < 5; i++) await th.failed("1.1.1.1", "a@x.com");
    expect(await th.retryAfter("1.1.1.1", "a@x.com")).toBe(8);
    expect(await th.retryAfter("1.1.1.1", "A@X.com")).toBe(8);
    expect(await th.retryAfter("2.2.2.2", "a@x.com")).toBe(0);
    now += 8000;
    expect(await th.retryAfter("1.1.1.1", "a@x.com")).toBe(0);
    await th.succeeded("1.1.1.1", "a@x.com");
    now += 1000;
    await th.failed("1.1.1.1", "a@x.com");
    expect(await th.retryAfter("1.1.1.1", "a@x.com")).toBe(0);
  });
});
