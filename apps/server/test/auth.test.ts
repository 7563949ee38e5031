import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../src/config.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_PER_EMAIL: "3", LOGIN_RATE_PER_IP: "1000" });
});
afterAll(() => t.teardown());

const cookieOf = (res: { headers: Record<string, unknown> }) => {
  const raw = res.headers["set-cookie"];
  const list = Array.isArray(raw) ? raw : [raw];
  const c = list.find((x) => String(x).startsWith("jrt="));
  return c ? String(c).split(";")[0] : undefined;
};

describe("sign-in", () => {
  it("answers a token and the user with their queues, and sets an httpOnly refresh cookie", async () => {
    const res = await t.app.inject({ method: "POST", url: "/auth/login", payload: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^ey/);
    expect(body.user).toMatchObject({ email: DEMO_ADMIN.email, profile: "admin", queues: [] });
    expect(body.user.passwordHash).toBeUndefined();
    const setCookie = String(res.headers["set-cookie"]);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("Path=/auth");
  });

  it("refuses a wrong password with ERR_INVALID_CREDENTIALS", async () => {
    const res = await t.app.inject({ method: "POST", url: "/auth/login", payload: { email: DEMO_ADMIN.email, password: "wrong" } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: "ERR_INVALID_CREDENTIALS" });
  });

  it("validates the body and names the fields", async () => {
    const res = await t.app.inject({ method: "POST", url: "/auth/login", payload: { email: "nope" } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { email: ["Invalid email"], password: ["Required"] } });
  });
});
