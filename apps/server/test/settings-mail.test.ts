import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../src/config.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/** A real SMTP server inside the suite: takes one account, keeps what it receives. */
interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  data: string;
}
const received: Received[] = [];
const smtp = new SMTPServer({
  authOptional: false,
  allowInsecureAuth: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onAuth(auth, _session, cb) {
    if (auth.username === "avisos@provedor.com.br" && auth.password === "senha-smtp-certa") return cb(null, { user: auth.username });
    return cb(new Error("Invalid username or password"));
  },
  onData(stream, session, cb) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
        to: session.envelope.rcptTo.map((r) => r.address),
        user: session.user as string | undefined,
        data: Buffer.concat(chunks).toString("utf8"),
      });
      cb();
    });
  },
});

let t: TestApp;
let port: number;
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  port = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp();
});
afterAll(async () => {
  await t.teardown();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const put = (key: string, value: string) =>
  t.app.inject({ method: "PUT", url: `/settings/${key}`, headers: bearer(t.adminToken), payload: { value } });
const sendTest = (to?: string) =>
  t.app.inject({ method: "POST", url: "/email/test", headers: bearer(t.adminToken), payload: to ? { to } : {} });

async function configure(password: string) {
  for (const [k, v] of Object.entries({
    mail_host: "127.0.0.1",
    mail_port: String(port),
    mail_smtp_secure: "none",
    mail_username: "avisos@provedor.com.br",
    mail_password: password,
  }))
    expect((await put(k, v)).statusCode).toBe(200);
}

describe("'Enviar e-mail de teste'", () => {
  it("with no host configured it says so instead of pretending", async () => {
    const res = await sendTest();
    expect(res.json()).toEqual({ ok: false, message: "mail_host is empty" });
  });

  it("the SMTP server receives the test e-mail from the configured sender, and its answer is shown", async () => {
    await configure("senha-smtp-certa");
    const res = await sendTest("suporte@cliente.com.br");
    expect(res.statusCode).toBe(200);
    const body = res.json() as { ok: boolean; message: string };
    expect(body.ok).toBe(true);
    expect(body.message).toMatch(/^250\b/);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: "avisos@provedor.com.br", to: ["suporte@cliente.com.br"], user: "avisos@provedor.com.br" });
    expect(received[0].data).toContain("From: avisos@provedor.com.br");
    expect(received[0].data).toContain("Subject: =?UTF-8?");
  });

  it("without `to` it goes to the admin asking", async () => {
    const res = await sendTest();
    expect(res.json()).toMatchObject({ ok: true });
    expect(received.at(-1)?.to).toEqual([DEMO_ADMIN.email]);
  });

  it("a refused login shows the server's error, never a silent success", async () => {
    await configure("senha-errada");
    const before = received.length;
    const res = await sendTest("suporte@cliente.com.br");
    expect(res.statusCode).toBe(200);
    const body = res.json() as { ok: boolean; message: string };
    expect(body.ok).toBe(false);
    expect(body.message).toContain("535");
    expect(body.message).toContain("Invalid username or password");
    expect(received.length).toBe(before);
  });

  it("an SMTP server that is not there answers the connection error", async () => {
    await put("mail_port", "1");
    const body = (await sendTest("suporte@cliente.com.br")).json() as { ok: boolean; message: string };
    expect(body.ok).toBe(false);
    expect(body.message).toMatch(/ECONNREFUSED|connect/i);
  });
});
