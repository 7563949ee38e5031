import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createQueue,
  customerSays,
  multipart,
  PNG,
  pairedSimulator,
  phoneOf,
  type SimConnection,
  settle,
} from "./conversation-kit.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";
import { S3RVER_KEY, type S3Fake, startS3 } from "./s3-kit.js";

/**
 * Issue 28 §5: with S3_* set, media of messages (the agent's upload, the customer's photo), contract
 * PDFs and branding images live in the S3 bucket (a real S3 server, s3rver), not under DATA_DIR, and
 * are read back through our routes; the keys never reach the log.
 */

let s3: S3Fake;
let t: TestApp;
let sim: SimConnection;
let agent: { id: number; token: string };
let ticketId: number;
const NUMBER = "5511955550001";
const lines: string[] = [];

/** The object keys in the bucket, read with the S3 API itself. */
async function bucketKeys(): Promise<string[]> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
  });
  try {
    const out = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    return (out.Contents ?? []).map((o) => o.Key ?? "");
  } finally {
    client.destroy();
  }
}

const localFiles = (area: string) => {
  const dir = join(t.config.dataDir, area);
  return existsSync(dir) ? readdirSync(dir) : [];
};

async function setSetting(key: string, value: string) {
  const r = await t.app.inject({ method: "PUT", url: `/settings/${key}`, headers: bearer(t.adminToken), payload: { value } });
  expect(r.statusCode, r.body).toBe(200);
}

beforeAll(async () => {
  s3 = await startS3();
  t = await createTestApp({ ...s3.env, LOG_LEVEL: "info" }, { logger: true, logStream: { write: (l: string) => void lines.push(l) } });
  const queue = await createQueue(t, "Comercial");
  sim = await pairedSimulator(t, { queueIds: [queue], isDefault: true });
  agent = await t.createUser({ name: "Ana", queueIds: [queue] });
  await customerSays(t, sim, NUMBER, "oi");
  const list = await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${NUMBER}`);
  ticketId = list.body.tickets[0].id;
  expect((await api(t, agent.token, "PUT", `/tickets/${ticketId}`, { status: "open", userId: agent.id })).status).toBe(200);
});
afterAll(async () => {
  await t?.teardown();
  await s3?.close();
});

describe("files in S3", () => {
  it("an agent's image goes to the bucket, is read back at its /media link and reaches the phone", async () => {
    const form = multipart({ body: "segue o print" }, [{ field: "medias", name: "print.png", type: "image/png", data: PNG }]);
    const res = await t.app.inject({
      method: "POST",
      url: `/messages/${ticketId}`,
      headers: { ...bearer(agent.token), ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [m] = res.json();
    const key = m.mediaUrl.slice("/media/".length);
    expect(await bucketKeys()).toContain(`media/${key}`);
    expect(localFiles("media")).not.toContain(key);
    const served = await t.app.inject({ method: "GET", url: m.mediaUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.rawPayload.equals(PNG)).toBe(true);
    // the sender read it back from the bucket to send it
    await settle(t);
    expect((await phoneOf(sim, NUMBER)).at(-1)).toMatchObject({ fromMe: true, mediaType: "image", body: "segue o print" });
    expect((await t.app.inject({ method: "GET", url: `/media/${"0".repeat(32)}.png` })).statusCode).toBe(404);
  });

  it("a customer's photo is stored in the bucket and shown in the chat", async () => {
    const photo = Buffer.concat([PNG, Buffer.from("cliente")]);
    await customerSays(t, sim, NUMBER, "olha a foto", { media: { data: photo, mimetype: "image/png" } });
    const msgs = await api(t, agent.token, "GET", `/messages/${ticketId}`);
    const m = msgs.body.messages.find((x: { body: string }) => x.body === "olha a foto");
    expect(m.mediaUrl).toMatch(/^\/media\//);
    expect(await bucketKeys()).toContain(`media/${m.mediaUrl.slice("/media/".length)}`);
    expect((await t.app.inject({ method: "GET", url: m.mediaUrl })).rawPayload.equals(photo)).toBe(true);
  });

  it("a branding image is stored in the bucket and served publicly; a replaced one is deleted there", async () => {
    const upload = async () => {
      const form = multipart({}, [{ field: "file", name: "logo.png", type: "image/png", data: PNG }]);
      const r = await t.app.inject({
        method: "POST",
        url: "/upload/login",
        headers: { ...bearer(t.adminToken), ...form.headers },
        payload: form.payload,
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().url as string;
    };
    const url = await upload();
    const name = url.slice("/branding/".length);
    expect(await bucketKeys()).toContain(`branding/${name}`);
    expect(localFiles("branding")).toHaveLength(0);
    const served = await t.app.inject({ method: "GET", url });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.rawPayload.equals(PNG)).toBe(true);
    await upload();
    expect(await bucketKeys()).not.toContain(`branding/${name}`);
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(404);
  });

  it("a contract's PDF is generated into the bucket and served through its checked route", async () => {
    for (const [k, v] of Object.entries({
      enableContract: "enabled",
      contrato_nome1: "Carlos Testemunha",
      contrato_cpf1: "11144477735",
      contrato_nome2: "Dora Testemunha",
      contrato_cpf2: "12345678909",
      msgEnvioContrato: "Olá {nome}, assine aqui: {link}",
    }))
      await setSetting(k, v);
    const r = await api(t, agent.token, "POST", "/api/contratos", {
      ticketId,
      nome: "Maria da Silva",
      email: "maria@cliente.test",
      cpf: "529.982.247-25",
      campos: {},
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const caminho = `/api/contratos/${r.body.id}/arquivo`;
    for (let i = 0; i < 50; i++) {
      const started = await t.jobs.tick();
      await t.jobs.idle();
      await settle(t);
      if (started === 0) break;
    }
    const keys = (await bucketKeys()).filter((k) => k.startsWith("contracts/"));
    expect(keys).toHaveLength(1);
    expect(localFiles("contracts")).toHaveLength(0);
    const file = await t.app.inject({ method: "GET", url: caminho, headers: bearer(agent.token) });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await t.app.inject({ method: "GET", url: caminho })).statusCode).toBe(401);
  });

  it("the keys never reach the log", () => {
    expect(lines.length).toBeGreaterThan(0);
    const log = lines.join("\n");
    expect(log).not.toContain(`"${S3RVER_KEY}"`);
    expect(log).not.toMatch(/S3_SECRET_ACCESS_KEY|secretAccessKey/);
  });
});

describe("a wrong access key", () => {
  it("refuses the upload with an error, and neither key is logged", async () => {
    const keyId = "Wrong-S3-Key-5e1f";
    const secret = "S3-Secret-Value-9a8b";
    const logged: string[] = [];
    const bad = await createTestApp(
      { ...s3.env, S3_ACCESS_KEY_ID: keyId, S3_SECRET_ACCESS_KEY: secret, LOG_LEVEL: "info" },
      { logger: true, logStream: { write: (l: string) => void logged.push(l) } },
    );
    try {
      const form = multipart({}, [{ field: "file", name: "logo.png", type: "image/png", data: PNG }]);
      const r = await bad.app.inject({
        method: "POST",
        url: "/upload/login",
        headers: { ...bearer(bad.adminToken), ...form.headers },
        payload: form.payload,
      });
      expect(r.statusCode).toBe(500);
      expect(r.json()).toMatchObject({ error: "ERR_INTERNAL" });
      expect(logged.join("\n")).toContain("storage put failed: InvalidAccessKeyId (HTTP 403)");
      expect(logged.join("\n")).not.toContain(secret);
      expect(logged.join("\n")).not.toContain(keyId);
    } finally {
      await bad.teardown();
    }
  });
});
