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

/** `secret`: the mail password typed again with a new server (a saved one goes only to the saved server) */
const put = (key: string, value: string, secret?: string) =>
  t.app.inject({ method: "PUT", url: `/settings/${key}`, headers: bearer(t.adminToken), payload: { value, ...(secret && { secret }) } });
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
    expect((await put(k, v, password)).statusCode).toBe(200);
}

describe("'Enviar e-mail de teste'", () => {
  it("with no host configured it says so instead of pretending", async () => {
    const res = await sendTest();
    expect(res.json()).toEqual({
      ok: false,
      message: "Preencha o servidor SMTP (host) para enviar o teste.",
      technical: "mail_host is empty",
    });
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
    const body = res.json() as { ok: boolean; message: string; technical: string };
    expect(body.ok).toBe(false);
    // what failed and what to check first, the server's own words second
    expect(body.message).toMatch(/^O servidor recusou o usuário ou a senha\. Confira/);
    expect(body.technical).toContain("535");
    expect(body.technical).toContain("Invalid username or password");
    expect(received.length).toBe(before);
  });

  it("an SMTP server that is not there: what failed and what to check in Portuguese, the socket's words second", async () => {
    await configure("senha-errada");
    expect((await put("mail_port", "1", "senha-errada")).statusCode).toBe(200);
    const body = (await sendTest("suporte@cliente.com.br")).json() as { ok: boolean; message: string; technical: string };
    expect(body.ok).toBe(false);
    expect(body.message).toBe(
      "O servidor 127.0.0.1 recusou a conexão na porta 1. Confira a porta (587 para TLS, 465 para SSL, 25 sem segurança) e se o serviço de e-mail está ativo.",
    );
    expect(body.technical).toMatch(/ECONNREFUSED/);
  });

  it("an unknown host says the name was not found", async () => {
    const body = (
      await t.app.inject({
        method: "POST",
        url: "/email/test",
        headers: bearer(t.adminToken),
        payload: { to: "suporte@cliente.com.br", mail_host: "smtp.nao-existe.invalid", mail_password: "x" },
      })
    ).json() as { ok: boolean; message: string; technical: string };
    expect(body.ok).toBe(false);
    expect(body.message).toBe("O servidor SMTP smtp.nao-existe.invalid não foi encontrado (DNS). Confira o endereço do servidor.");
    expect(body.technical).toMatch(/ENOTFOUND|EAI_AGAIN|EDNS/);
  });
});

/** Issue 26 §3 and issue 33 item 1: the test sends what the form holds; the saved password never leaves for another server. */
describe("'Enviar e-mail de teste' with the form's values", () => {
  const test = (payload: Record<string, string>) =>
    t.app.inject({
      method: "POST",
      url: "/email/test",
      headers: bearer(t.adminToken),
      payload: { to: "suporte@cliente.com.br", ...payload },
    });

  it("tests the port and password being typed, not the saved ones", async () => {
    await configure("senha-errada");
    expect((await put("mail_port", "1", "senha-errada")).statusCode).toBe(200);
    const before = received.length;
    const res = await test({ mail_port: String(port), mail_password: "senha-smtp-certa" });
    expect(res.json()).toMatchObject({ ok: true });
    expect(received.length).toBe(before + 1);
    // nothing was saved by testing
    const list = (await t.app.inject({ method: "GET", url: "/settings", headers: bearer(t.adminToken) })).json() as {
      key: string;
      value: string;
    }[];
    expect(list.find((s) => s.key === "mail_port")?.value).toBe("1");
  });

  it("the saved password is sent only to the saved server: another host or port needs it typed", async () => {
    await configure("senha-smtp-certa");
    // an outside server, recording who connects and what password arrives
    const seen: { connections: number; passwords: string[] } = { connections: 0, passwords: [] };
    const outside = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onConnect(_s, cb) {
        seen.connections++;
        cb();
      },
      onAuth(auth, _s, cb) {
        seen.passwords.push(String(auth.password));
        cb(null, { user: auth.username });
      },
      onData(stream, _s, cb) {
        stream.resume();
        stream.on("end", () => cb());
      },
    });
    await new Promise<void>((resolve) => outside.listen(0, "127.0.0.1", () => resolve()));
    const outsidePort = String((outside.server.address() as AddressInfo).port);
    try {
      const elsewhere: Record<string, string>[] = [
        { mail_port: outsidePort },
        { mail_host: "localhost", mail_port: outsidePort },
        { mail_smtp_secure: "ssl" },
      ];
      for (const typed of elsewhere) {
        const res = await test(typed);
        expect(res.json()).toEqual({
          ok: false,
          message:
            "Digite a senha para testar este servidor: a senha salva só é enviada ao servidor salvo (endereço, porta e segurança). Nada foi enviado.",
          technical: "ERR_SECRET_NEEDS_RETYPE",
        });
      }
      expect(seen.connections).toBe(0);
      // typed: the typed password goes there, never the saved one
      expect((await test({ mail_port: outsidePort, mail_password: "digitada-agora" })).json()).toMatchObject({ ok: true });
      expect(seen.passwords).toEqual(["digitada-agora"]);
      // the saved server with a new user name still gets the saved password (same address)
      const same = await test({ mail_username: "outro@provedor.com.br" });
      expect(same.json()).toMatchObject({ ok: false });
      expect(same.json().technical).toContain("535");
    } finally {
      await new Promise<void>((resolve) => outside.close(() => resolve()));
    }
  });
});
