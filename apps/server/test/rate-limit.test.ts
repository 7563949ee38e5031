import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../src/config.js";
import { createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_PER_EMAIL: "3", LOGIN_RATE_PER_IP: "8", LOGIN_RATE_WINDOW_S: "600" });
});
afterAll(() => t.teardown());

const attempt = (email: string, password: string, ip = "10.0.0.1") =>
  t.app.inject({ method: "POST", url: "/auth/login", payload: { email, password }, remoteAddress: ip });

describe("login rate limits", () => {
  it("locks an e-mail after repeated failures, even with the right password, and says when to retry", async () => {
    const victim = await t.createUser({ password: "right-pass" });
    for (let i = 0; i < 3; i++) expect((await attempt(victim.email, "wrong", `10.1.0.${i}`)).statusCode).toBe(401);
    const locked = await attempt(victim.email, "right-pass", "10.1.0.99");
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: "ERR_TOO_MANY_REQUESTS" });
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
    // another account is not affected
    expect((await attempt(DEMO_ADMIN.email, DEMO_ADMIN.password, "10.1.0.98")).statusCode).toBe(200);
  });

  it("limits attempts per IP address", async () => {
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await attempt(`someone${i}@x.com`, "x", "10.9.9.9")).statusCode);
    expect(codes.slice(0, 8).every((c) => c === 401)).toBe(true);
    expect(codes.slice(8)).toEqual([429, 429]);
    expect((await attempt(DEMO_ADMIN.email, DEMO_ADMIN.password, "10.9.9.10")).statusCode).toBe(200);
  });
});
