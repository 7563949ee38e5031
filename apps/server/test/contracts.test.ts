import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFRef } from "@cantoo/pdf-lib";
import { sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONTRACT_TEMPLATE, isValidCpf, formatCpf } from "@balcao/contract";
import * as contracts from "../src/modules/contracts/service.js";
import { ensureDefaultTemplate, PREVIOUS_DEFAULT_CORPO } from "../src/modules/contracts/templates.js";
import {
  api,
  PNG,
  createQueue,
  customerSays,
  listen,
  multipart,
  pairedSimulator,
  phoneOf,
  recorder,
  type SimConnection,
  settle,
  socketFor,
} from "./conversation-kit.js";
import { fakeClock } from "./fake-clock.js";
import { pdfLayoutText, pdfPages } from "./poppler.js";
import { bearer, createTestApp, type TestApp } from "./helpers.js";

/**
 * Issue 20: a contract sent from a ticket (PDF on the job runner with the customer and the
 * witnesses, the link through the outbox), the public signing (CPF check and its lock, the
 * document's hash, the name, single use, expiry), the signed PDF whose SHA-256 is the evidence's,
 * the confirmation and the e-mail once (a real SMTP server from smtp-server), jobs run again doing
 * nothing twice, and who sees what.
 */

const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");
const CPF = "529.982.247-25";
const fake = fakeClock();
let t: TestApp;
let sim: SimConnection;
let agent: { id: number; token: string };
let otherAgent: { id: number; token: string };
let ticketId: number;
const NUMBER = "5511987650001";
const mails: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer;

async function setSetting(key: string, value: string) {
  const r = await t.app.inject({ method: "PUT", url: `/settings/${key}`, headers: bearer(t.adminToken), payload: { value } });
  expect(r.statusCode, r.body).toBe(200);
}

/** Runs every job due now and sends what the outbox holds. */
async function drain() {
  for (let i = 0; i < 50; i++) {
    const started = await t.jobs.tick();
    await t.jobs.idle();
    await settle(t);
    if (started === 0) break;
  }
  await settle(t);
}

/** The text drawn on a PDF's pages (standard fonts: hex or literal strings, WinAnsi). */
async function pdfText(data: Buffer): Promise<string> {
  const doc = await PDFDocument.load(data);
  let out = "";
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
    for (const ref of refs) {
      const stream = doc.context.lookup(ref as PDFRef);
      if (!(stream instanceof PDFRawStream)) continue;
      const bytes = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
      for (const m of bytes.matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
        out += `${m[1] !== undefined ? Buffer.from(m[1], "hex").toString("latin1") : m[2]}\n`;
      }
    }
  }
  return out;
}

function linkIn(text: string): string {
  const m = /\/assinar\/([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error(`no link in ${text}`);
  return m[1];
}

async function send(extra: Record<string, unknown> = {}, token = agent.token) {
  return api(t, token, "POST", "/api/contratos", {
    ticketId,
    nome: "Maria da Silva Souza",
    email: "maria@cliente.test",
    cpf: CPF,
    campos: { endereco: "Rua das Flores, 10", plano: "Fibra 500", valor: "R$ 99,90" },
    ...extra,
  });
}

/** Sends a contract, generates it, and answers its id and the token of the link the customer got. */
async function sentContract(): Promise<{ id: number; token: string }> {
  const before = (await phoneOf(sim, NUMBER)).length;
  const r = await send();
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  await drain();
  const mine = (await phoneOf(sim, NUMBER)).slice(before).filter((m) => m.fromMe && /\/assinar\//.test(m.body ?? ""));
  expect(mine).toHaveLength(1);
  return { id: r.body.id, token: linkIn(mine[0].body ?? "") };
}

/** The document behind the CPF check, as the page fetches it. */
const document = (token: string, cpf5 = "52998") => t.app.inject({ method: "POST", url: `/assinar/${token}/documento`, payload: { cpf5 } });
const docHash = async (token: string) => sha((await document(token)).rawPayload);
const post = (token: string, path: string, payload: unknown) =>
  t.app.inject({
    method: "POST",
    url: `/assinar/${token}${path}`,
    payload: payload as object,
    headers: { "user-agent": "Teste/1.0 (Android)" },
  });

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (auth, _s, cb) =>
      auth.username === "contratos@provedor.test" && auth.password === "segredo" ? cb(null, { user: 1 }) : cb(new Error("bad auth")),
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("latin1") });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  const port = (smtp.server.address() as AddressInfo).port;

  t = await createTestApp({}, { clock: fake.clock });
  const queue = await createQueue(t, "Comercial");
  const otherQueue = await createQueue(t, "Suporte");
  sim = await pairedSimulator(t, { queueIds: [queue], isDefault: true });
  agent = await t.createUser({ name: "Ana Atendente", queueIds: [queue] });
  otherAgent = await t.createUser({ name: "Bruno", queueIds: [otherQueue] });
  for (const [k, v] of Object.entries({
    enableContract: "enabled",
    contrato_nome1: "Carlos Testemunha",
    contrato_cpf1: "11144477735",
    contrato_nome2: "Dora Testemunha",
    contrato_cpf2: "12345678909",
    msgEnvioContrato: "Olá {nome}, assine aqui: {link}",
    msgConfirmacaoAssinatura: "Recebemos a sua assinatura, {nome}!",
    mail_host: "127.0.0.1",
    mail_port: String(port),
    mail_smtp_secure: "none",
    mail_username: "contratos@provedor.test",
    mail_password: "segredo",
    mail_dominio_erp: "erp@provedor.test",
  })) {
    await setSetting(k, v);
  }
  await customerSays(t, sim, NUMBER, "quero contratar");
  const tk = await api(t, t.adminToken, "GET", `/tickets?showAll=true&searchParam=${NUMBER}`);
  ticketId = tk.body.tickets[0].id;
  expect((await api(t, agent.token, "PUT", `/tickets/${ticketId}`, { status: "open", userId: agent.id })).status).toBe(200);
});
afterAll(async () => {
  await t?.teardown();
  await new Promise<void>((r) => smtp.close(() => r()));
});

describe("CPF check digits", () => {
  it("accepts the reference's worked example and refuses wrong digits and repeated strings", () => {
    expect(isValidCpf("529.982.247-25")).toBe(true);
    expect(isValidCpf("52998224725")).toBe(true);
    expect(isValidCpf("529.982.247-26")).toBe(false);
    expect(isValidCpf("111.111.111-11")).toBe(false);
    expect(isValidCpf("5299822472")).toBe(false);
    expect(formatCpf("52998224725")).toBe("529.982.247-25");
  });
});

describe("sending a contract from a ticket", () => {
  it("refuses an invalid CPF, and everything while contracts are disabled", async () => {
    const bad = await send({ cpf: "529.982.247-26" });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty("cpf");
    await setSetting("enableContract", "disabled");
    const off = await send();
    expect(off.status).toBe(403);
    expect(off.body.error).toBe("ERR_CONTRACTS_DISABLED");
    await setSetting("enableContract", "enabled");
  });

  it("only the ticket's owner among agents sends; an agent of another queue cannot", async () => {
    const r = await send({}, otherAgent.token);
    expect(r.status).toBe(403);
  });

  it("generates the PDF on the job runner with the customer's data and the witnesses, then sends the link", async () => {
    const r = await send();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "Nao assinado", nome: "Maria da Silva Souza", caminho: null, atendente: "Ana Atendente" });
    await drain();
    const list = await api(t, agent.token, "GET", `/api/contratos?ticket=${ticketId}`);
    const item = list.body.items.find((i: { id: number }) => i.id === r.body.id);
    expect(item.caminho).toBe(`/api/contratos/${r.body.id}/arquivo`);
    expect(item.data_envio).not.toBeNull();
    const file = await t.app.inject({ method: "GET", url: item.caminho, headers: bearer(agent.token) });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("application/pdf");
    const text = await pdfText(file.rawPayload);
    expect(text).toContain("Maria da Silva Souza");
    expect(text).toContain("529.982.247-25");
    expect(text).toContain("Carlos Testemunha");
    expect(text).toContain("111.444.777-35");
    expect(text).toContain("Dora Testemunha");
    expect(text).toContain("Fibra 500");
    // the customer's phone got the link, through the outbox
    const sent = (await phoneOf(sim, NUMBER)).filter(
      (m) => m.fromMe && (m.body ?? "").startsWith("Olá Maria da Silva Souza, assine aqui:"),
    );
    expect(sent.length).toBeGreaterThanOrEqual(1);
    // the token is stored only hashed
    const token = linkIn(sent.at(-1)?.body ?? "");
    const { rows } = await t.ctx.db.execute(sql`select count(*)::int as n from contract_tokens where token_hash = ${token}`);
    expect(Number((rows[0] as { n: number }).n)).toBe(0);
  });

  it("draws the logo, the background and the watermark from the e-mail settings (images uploaded on the settings screen)", async () => {
    const form = multipart({}, [{ field: "image", name: "logo.png", type: "image/png", data: PNG }]);
    const up = await t.app.inject({
      method: "POST",
      url: "/email/upload",
      headers: { ...bearer(t.adminToken), ...form.headers },
      payload: form.payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    for (const key of ["mail_logo", "mail_fundo_contrato", "mail_marca_agua"]) await setSetting(key, up.json().url);
    try {
      const { id } = await sentContract();
      const file = await t.app.inject({ method: "GET", url: `/api/contratos/${id}/arquivo`, headers: bearer(agent.token) });
      const doc = await PDFDocument.load(file.rawPayload);
      const xobjects = doc.getPages()[0].node.Resources()?.lookup(PDFName.of("XObject"), PDFDict);
      // three images embedded and drawn on the first page
      expect(xobjects?.keys().length).toBe(3);
    } finally {
      for (const key of ["mail_logo", "mail_fundo_contrato", "mail_marca_agua"]) await setSetting(key, "");
    }
  });

  it("files are not served without a session, nor to an agent who cannot see the ticket", async () => {
    const { id } = await sentContract();
    expect((await t.app.inject({ method: "GET", url: `/api/contratos/${id}/arquivo` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: `/api/contratos/${id}/arquivo`, headers: bearer(otherAgent.token) })).statusCode).toBe(
      403,
    );
    const theirs = await api(t, otherAgent.token, "GET", "/api/contratos?limit=1000");
    expect(theirs.body.items.map((i: { id: number }) => i.id)).not.toContain(id);
    const admins = await api(t, t.adminToken, "GET", "/api/contratos?limit=1000");
    expect(admins.body.items.map((i: { id: number }) => i.id)).toContain(id);
  });
});

/** The contract's file and its filled text, as stored. */
async function contractPdf(id: number): Promise<{ pdf: Buffer; texto: string }> {
  const file = await t.app.inject({ method: "GET", url: `/api/contratos/${id}/arquivo?original=1`, headers: bearer(agent.token) });
  expect(file.statusCode).toBe(200);
  const { rows } = await t.ctx.db.execute(sql`select texto from contracts where id = ${id}`);
  return { pdf: file.rawPayload, texto: (rows[0] as { texto: string }).texto };
}

const words = (s: string) => s.replace(/\s+/g, " ").trim();

/** Every non-empty line of the template's text starts a line of the PDF, and reads whole (wrapped only at spaces). */
function expectLaidOut(layout: string, texto: string) {
  const lines = layout.split(/\n|\f/).map((l) => l.trim());
  // the page footers interrupt a paragraph that crosses a page
  const flat = words(lines.filter((l) => !/^Contrato nº \d+ · página \d+ de \d+$/.test(l)).join("\n"));
  for (const para of texto
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)) {
    const start = para.split(" ").slice(0, 3).join(" ");
    expect(
      lines.some((l) => l.startsWith(start)),
      `a line starts with "${start}"`,
    ).toBe(true);
    expect(flat).toContain(words(para));
  }
}

describe("the contract's PDF as a reader sees it (pdftotext -layout)", () => {
  it("lays out paragraphs and lines: each starts a line, no '?' where the template breaks", async () => {
    const { id } = await sentContract();
    const { pdf, texto } = await contractPdf(id);
    const layout = await pdfLayoutText(pdf);
    expectLaidOut(layout, texto);
    expect(layout).not.toContain("?");
    const lines = layout.split("\n").map((l) => l.trim());
    // the title line ends where the template's line ends; the witnesses each on their own line
    expect(lines).toContain("CONTRATO DE PRESTAÇÃO DE SERVIÇOS DE ACESSO À INTERNET");
    const w = lines.indexOf("Testemunhas:");
    expect(w).toBeGreaterThan(0);
    expect(lines.slice(w + 1, w + 3)).toEqual(["Carlos Testemunha — CPF 111.444.777-35", "Dora Testemunha — CPF 123.456.789-09"]);
  });

  it("a long contract wraps to the page's width and breaks pages, every paragraph whole", async () => {
    const para = (i: number) =>
      `${i}. CLÁUSULA ${i}. ${"O CONTRATANTE declara ter lido e compreendido as condições desta cláusula, que vale para o plano {plano}. ".repeat(4)}`;
    const corpo = Array.from({ length: 40 }, (_, i) => para(i + 1)).join("\n\n");
    const tpl = await api(t, t.adminToken, "POST", "/api/contratos/modelos", { titulo: "Contrato longo", corpo });
    expect(tpl.status).toBe(200);
    try {
      const r = await send({ modeloId: tpl.body.id });
      await drain();
      const { pdf, texto } = await contractPdf(r.body.id);
      const pages = await pdfPages(pdf);
      expect(pages).toBeGreaterThanOrEqual(3);
      const layout = await pdfLayoutText(pdf);
      expectLaidOut(layout, texto);
      expect(layout).not.toContain("?");
      expect(layout).toContain(`página ${pages} de ${pages}`);
      // wrapped: no line is longer than the page holds (A4 less the margins: about 100 characters of 10.5 pt Helvetica)
      const longest = Math.max(...layout.split("\n").map((l) => l.trim().length));
      expect(longest).toBeLessThan(110);
    } finally {
      await api(t, t.adminToken, "DELETE", `/api/contratos/modelos/${tpl.body.id}`);
    }
  });

  it("a customer's name outside the standard fonts' characters: the PDF is made, plain letters for the missing ones, emoji left out, '?' for the rest", async () => {
    const r = await send({ nome: "Nguyễn Thị Łucja 🌸 张" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await drain();
    const item = await api(t, agent.token, "GET", `/api/contratos/${r.body.id}`);
    expect(item.body.caminho).not.toBeNull();
    const { pdf } = await contractPdf(r.body.id);
    expect(await pdfPages(pdf)).toBeGreaterThanOrEqual(1);
    const layout = await pdfLayoutText(pdf);
    expect(layout).toContain("CONTRATANTE: Nguyên Thi Lucja ?, inscrito(a)");
    expect(layout).toContain("CONTRATANTE: Nguyên Thi Lucja ?\n");
  });
});

/** A customer-facing answer: a page in Portuguese with its status, never the API's JSON. */
function expectPage(r: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, title: string) {
  expect(r.statusCode).toBe(status);
  expect(String(r.headers["content-type"])).toContain("text/html");
  expect(r.body).toContain('<html lang="pt-BR">');
  expect(r.body).toContain(`<h1>${title}</h1>`);
  expect(r.body).not.toContain('"error"');
}

describe("signing", () => {
  it("refuses a wrong CPF, a tampered document, a wrong name; signs once; the signed PDF's SHA-256 is the evidence's; confirmation and e-mail go out once", async () => {
    const url = await listen(t);
    const socket = await socketFor(url, agent.token);
    const heard = recorder<{ action: string; contract?: { id: number; status: string } }>(socket, "contract");
    try {
      const { id, token } = await sentContract();
      const page = await t.app.inject({ method: "GET", url: `/assinar/${token}` });
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-security-policy"]).toContain("script-src 'self' 'sha256-");
      expect(page.body).toContain("Contrato de Prestação");
      expect(page.body).toContain("Maria da Silva Souza");
      const hash = await docHash(token);

      const wrong = await post(token, "/cpf", { cpf5: "11111" });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error).toBe("ERR_SIGNING_CPF_MISMATCH");
      expect((await post(token, "/cpf", { cpf5: "52998" })).statusCode).toBe(200);

      const accept = { cpf5: "52998", nome: "maria da silva  SOUZA", aceito: true, documentoSha256: hash };
      const tampered = await post(token, "/aceite", { ...accept, documentoSha256: sha("outro documento") });
      expect(tampered.statusCode).toBe(409);
      expect(tampered.json().error).toBe("ERR_SIGNING_DOCUMENT_CHANGED");
      // the stored file changed under the page: refused too
      const [row] = (await t.ctx.db.execute(sql`select file_key from contracts where id = ${id}`)).rows as { file_key: string }[];
      const path = join(t.config.dataDir, "contracts", row.file_key);
      const original = await readFile(path);
      await writeFile(path, Buffer.concat([original, Buffer.from("%% alterado\n")]));
      expect((await post(token, "/aceite", accept)).json().error).toBe("ERR_SIGNING_DOCUMENT_CHANGED");
      await writeFile(path, original);
      const wrongName = await post(token, "/aceite", { ...accept, nome: "Outra Pessoa" });
      expect(wrongName.json().error).toBe("ERR_SIGNING_NAME_MISMATCH");

      const ok = await post(token, "/aceite", accept);
      expect(ok.statusCode, ok.body).toBe(200);
      const signedSha = ok.json().assinadoSha256 as string;
      await heard.waitFor((p) => p.action === "update" && p.contract?.id === id && p.contract.status === "Assinado");

      // a used link signs nothing more; its page gives the signed copy behind the CPF check while it lives
      expect((await post(token, "/aceite", accept)).statusCode).toBe(410);
      const after = await t.app.inject({ method: "GET", url: `/assinar/${token}` });
      expect(after.statusCode).toBe(200);
      expect(after.body).toContain("Contrato assinado em");
      expect(after.body).not.toContain("Li e aceito");
      expect(sha((await document(token)).rawPayload)).toBe(signedSha);

      // the signed file: its SHA-256 is the one recorded, with the evidence page
      const file = await t.app.inject({ method: "GET", url: `/api/contratos/${id}/arquivo`, headers: bearer(agent.token) });
      expect(sha(file.rawPayload)).toBe(signedSha);
      const ev = await contracts.evidenceOf(t.ctx.db, id);
      const signedEv = ev.find((e) => e.event === "signed");
      expect(signedEv).toBeDefined();
      const data = JSON.parse(signedEv?.data ?? "{}");
      expect(data.signedSha256).toBe(signedSha);
      expect(data.originalSha256).toBe(hash);
      expect(data.telefone).toBe(NUMBER);
      expect(signedEv?.userAgent).toBe("Teste/1.0 (Android)");
      expect(signedEv?.ip).not.toBe("");
      expect(signedEv?.at.getTime()).toBe(fake.at());
      expect(ev.map((e) => e.event)).toEqual(expect.arrayContaining(["sent", "view", "cpf_wrong", "signed"]));
      const text = await pdfText(file.rawPayload);
      expect(text).toContain("REGISTRO DE ASSINATURA");
      expect(text).toContain("2.200-2/2001");
      expect(text).toContain(hash);
      // the original is still there, unchanged
      const orig = await t.app.inject({ method: "GET", url: `/api/contratos/${id}/arquivo?original=1`, headers: bearer(agent.token) });
      expect(sha(orig.rawPayload)).toBe(hash);

      await drain();
      // a retried generate or mail job, and the acceptance's effects, happen once
      await contracts.runGenerate(t.contracts, id);
      await t.jobs.enqueue(contracts.MAIL_JOB, { contractId: id }, { runAt: new Date(fake.at()) });
      await drain();
      const confirmations = (await phoneOf(sim, NUMBER)).filter(
        (m) => m.fromMe && m.body === "Recebemos a sua assinatura, Maria da Silva Souza!",
      );
      expect(confirmations).toHaveLength(1);
      const mine = mails.filter((m) => m.raw.includes(`contrato-${id}-assinado.pdf`));
      expect(mine).toHaveLength(1);
      expect(mine[0].to.sort()).toEqual(["erp@provedor.test", "maria@cliente.test"]);
      expect(mine[0].raw.replace(/\r?\n/g, "")).toContain(file.rawPayload.toString("base64"));
      const links = (await phoneOf(sim, NUMBER)).filter((m) => m.fromMe && m.body?.includes(token));
      expect(links).toHaveLength(1);
    } finally {
      socket.disconnect();
    }
  });

  it("the page shows the document only after the CPF check: no CPF, no text, no PDF before it", async () => {
    const { token } = await sentContract();
    const page = await t.app.inject({ method: "GET", url: `/assinar/${token}` });
    expect(page.statusCode).toBe(200);
    for (const cpf of ["529.982.247-25", "52998224725", "247-25"]) expect(page.body).not.toContain(cpf);
    expect(page.body).not.toContain("CONTRATANTE");
    expect(page.body).toContain("Maria da Silva Souza");
    // the PDF's address answers a page that says to confirm the CPF, not the file
    const direct = await t.app.inject({ method: "GET", url: `/assinar/${token}/documento.pdf` });
    expect(direct.statusCode).toBe(403);
    expect(direct.headers["content-type"]).toContain("text/html");
    expect(direct.body).toContain("Confirme o seu CPF");
    // a wrong CPF gets no document and counts as a try
    const wrong = await document(token, "11111");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: "ERR_SIGNING_CPF_MISMATCH", fields: { cpf5: ["4 tentativa(s) restante(s)"] } });
    const checked = await post(token, "/cpf", { cpf5: "52998" });
    expect(checked.json()).toMatchObject({ ok: true, restantes: 4 });
    expect(checked.json().texto).toContain("CONTRATANTE: Maria da Silva Souza, inscrito(a) no CPF sob o nº 529.982.247-25");
    const pdf = await document(token);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(await pdfLayoutText(pdf.rawPayload)).toContain("529.982.247-25");
  });

  it("one count of tries left: the page after a wrong CPF says 4, once", async () => {
    const { token } = await sentContract();
    expect((await t.app.inject({ method: "GET", url: `/assinar/${token}` })).body.match(/tentativa\(s\)/g)).toHaveLength(1);
    // the answer's words are the page's count line, which the page's script replaces (not a second count beside it)
    expect((await post(token, "/cpf", { cpf5: "11111" })).json().fields).toEqual({ cpf5: ["4 tentativa(s) restante(s)"] });
    const page = (await t.app.inject({ method: "GET", url: `/assinar/${token}` })).body;
    expect(page.match(/tentativa\(s\)/g)).toHaveLength(1);
    expect(page).toContain("4 tentativa(s) restante(s).");
    expect(page).not.toContain("Restam");
  });

  it("promises the signed copy by e-mail only when it will be sent (an address and a mail server)", async () => {
    const mailed = await sentContract();
    expect((await t.app.inject({ method: "GET", url: `/assinar/${mailed.token}` })).body).toContain("uma cópia assinada no seu e-mail");
    const before = (await phoneOf(sim, NUMBER)).length;
    const r = await send({ email: "" });
    await drain();
    const link = (await phoneOf(sim, NUMBER)).slice(before).find((m) => m.fromMe && /\/assinar\//.test(m.body ?? ""));
    const noMail = await t.app.inject({ method: "GET", url: `/assinar/${linkIn(link?.body ?? "")}` });
    expect(r.status).toBe(200);
    expect(noMail.body).not.toContain("e-mail");
    expect(noMail.body).toContain("Baixe a sua cópia assinada");
    await setSetting("mail_host", "");
    try {
      expect((await t.app.inject({ method: "GET", url: `/assinar/${mailed.token}` })).body).not.toContain("e-mail");
    } finally {
      await setSetting("mail_host", "127.0.0.1");
    }
  });

  it("two acceptances of one link at once: one signs, the other is refused; one confirmation", async () => {
    const { id, token } = await sentContract();
    const hash = await docHash(token);
    const accept = { cpf5: "52998", nome: "Maria da Silva Souza", aceito: true, documentoSha256: hash };
    const answers = await Promise.all([post(token, "/aceite", accept), post(token, "/aceite", accept)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 410]);
    await drain();
    const signed = (await contracts.evidenceOf(t.ctx.db, id)).filter((e) => e.event === "signed");
    expect(signed).toHaveLength(1);
    const { rows } = await t.ctx.db.execute(
      sql`select count(*)::int as n from messages where body = 'Recebemos a sua assinatura, Maria da Silva Souza!'`,
    );
    // one confirmation per signed contract so far (this one and the first test's)
    const { rows: signedRows } = await t.ctx.db.execute(sql`select count(*)::int as n from contracts where status = 'Assinado'`);
    expect(Number((rows[0] as { n: number }).n)).toBe(Number((signedRows[0] as { n: number }).n));
  });

  it("a generate job run again while the first is running (a retry after a lost lease) sends one link", async () => {
    const before = (await phoneOf(sim, NUMBER)).length;
    const r = await send();
    await Promise.all([contracts.runGenerate(t.contracts, r.body.id), contracts.runGenerate(t.contracts, r.body.id)]);
    await drain();
    const links = (await phoneOf(sim, NUMBER)).slice(before).filter((m) => m.fromMe && /\/assinar\//.test(m.body ?? ""));
    expect(links).toHaveLength(1);
    const { rows } = await t.ctx.db.execute(sql`select count(*)::int as n from contract_tokens where contract_id = ${r.body.id}`);
    expect(Number((rows[0] as { n: number }).n)).toBe(1);
  });

  it("locks the link after 5 wrong CPF tries", async () => {
    const { token } = await sentContract();
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await post(token, "/cpf", { cpf5: "00000" })).statusCode);
    expect(answers).toEqual([400, 400, 400, 400, 423]);
    expect((await post(token, "/cpf", { cpf5: "52998" })).statusCode).toBe(423);
    expectPage(await t.app.inject({ method: "GET", url: `/assinar/${token}` }), 423, "Link bloqueado");
    expectPage(await t.app.inject({ method: "GET", url: `/assinar/${token}/documento.pdf` }), 423, "Link bloqueado");
  });

  it("refuses an expired link (7 days)", async () => {
    const { token } = await sentContract();
    const hash = await docHash(token);
    fake.advance(7 * 86_400_000 + 60_000);
    expectPage(await t.app.inject({ method: "GET", url: `/assinar/${token}` }), 410, "Link indisponível");
    expectPage(await t.app.inject({ method: "GET", url: `/assinar/${token}/documento.pdf` }), 410, "Link indisponível");
    const r = await post(token, "/aceite", { cpf5: "52998", nome: "Maria da Silva Souza", aceito: true, documentoSha256: hash });
    expect(r.statusCode).toBe(410);
    expect(r.json().error).toBe("ERR_SIGNING_LINK_INVALID");
  });

  it("the confirmation fills its variables as the contract does: {link} is the signing link, {titulo}, {telefone}, {cpf}", async () => {
    await setSetting("msgConfirmacaoAssinatura", "Contrato assinado: {link} · {titulo} · {telefone} · {cpf}");
    try {
      const { token } = await sentContract();
      const ok = await post(token, "/aceite", {
        cpf5: "52998",
        nome: "Maria da Silva Souza",
        aceito: true,
        documentoSha256: await docHash(token),
      });
      expect(ok.statusCode, ok.body).toBe(200);
      await drain();
      const last = (await phoneOf(sim, NUMBER)).filter((m) => m.fromMe && m.body?.startsWith("Contrato assinado:")).at(-1);
      expect(last?.body).toMatch(
        new RegExp(
          `^Contrato assinado: https?://[^ ]+/assinar/${token} · Contrato de Prestação de Serviços de Internet · ${NUMBER} · 529\\.982\\.247-25$`,
        ),
      );
    } finally {
      await setSetting("msgConfirmacaoAssinatura", "Recebemos a sua assinatura, {nome}!");
    }
  });

  it("an unknown or malformed token gets the page in Portuguese, the PDF's address too", async () => {
    for (const token of ["naoexisteessetokenaquinao123", "x".repeat(90), "curto", "com%20espa%C3%A7o"]) {
      expectPage(await t.app.inject({ method: "GET", url: `/assinar/${token}` }), 410, "Link indisponível");
      expectPage(await t.app.inject({ method: "GET", url: `/assinar/${token}/documento.pdf` }), 410, "Link indisponível");
    }
  });
});

describe("lists and delete", () => {
  it("filters by status and plain dates in the time zone, pages from 1, deletes one with its files", async () => {
    const all = await api(t, t.adminToken, "GET", "/api/contratos?limit=1000");
    expect(all.body.total).toBe(all.body.items.length);
    const signed = await api(t, t.adminToken, "GET", "/api/contratos?status=Assinado&limit=1000");
    expect(signed.body.items.length).toBeGreaterThan(0);
    expect(signed.body.items.every((i: { status: string }) => i.status === "Assinado")).toBe(true);
    const { rows: counted } = await t.ctx.db.execute(sql`select count(*)::int as n from contracts where status = 'Assinado'`);
    expect(signed.body.total).toBe(Number((counted[0] as { n: number }).n));
    const page2 = await api(t, t.adminToken, "GET", "/api/contratos?limit=2&page=2");
    expect(page2.body.items.map((i: { id: number }) => i.id)).toEqual(all.body.items.slice(2, 4).map((i: { id: number }) => i.id));
    // plain dates are days in the product's zone: the newest contract's local day finds it, the day before does not
    const newest = all.body.items[0];
    const day = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(d);
    const { rows: created } = await t.ctx.db.execute(
      sql`select coalesce(sent_at, created_at) as at from contracts where id = ${newest.id}`,
    );
    const createdDay = day(new Date((created[0] as { at: string }).at));
    const sameDay = await api(t, t.adminToken, "GET", `/api/contratos?from=${createdDay}&to=${createdDay}&limit=1000`);
    expect(sameDay.body.items.map((i: { id: number }) => i.id)).toContain(newest.id);
    const dayBefore = day(new Date(new Date(`${createdDay}T12:00:00Z`).getTime() - 86_400_000));
    const before = await api(t, t.adminToken, "GET", `/api/contratos?to=${dayBefore}&limit=1000`);
    expect(before.body.items.map((i: { id: number }) => i.id)).not.toContain(newest.id);
    const none = await api(t, t.adminToken, "GET", "/api/contratos?from=2020-01-01&to=2020-01-02");
    expect(none.body).toEqual({ items: [], total: 0 });
    const id = signed.body.items[0].id;
    const { rows: files } = await t.ctx.db.execute(sql`select file_key, signed_key from contracts where id = ${id}`);
    const { file_key, signed_key } = files[0] as { file_key: string; signed_key: string };
    expect((await api(t, otherAgent.token, "DELETE", `/api/contratos/${id}`)).status).toBe(403);
    expect((await api(t, t.adminToken, "DELETE", `/api/contratos/${id}`)).status).toBe(200);
    expect((await api(t, t.adminToken, "GET", `/api/contratos/${id}`)).status).toBe(404);
    for (const key of [file_key, signed_key]) await expect(readFile(join(t.config.dataDir, "contracts", key))).rejects.toThrow();
  });
});

describe("templates", () => {
  it("ships a default; admins write, agents read", async () => {
    const list = await api(t, agent.token, "GET", "/api/contratos/modelos");
    expect(list.body.filter((m: { padrao: boolean }) => m.padrao)).toHaveLength(1);
    expect((await api(t, agent.token, "POST", "/api/contratos/modelos", { titulo: "X", corpo: "Y" })).status).toBe(403);
    const created = await api(t, t.adminToken, "POST", "/api/contratos/modelos", {
      titulo: "Adesão",
      corpo: "Eu, {nome}, CPF {cpf}, adiro ao plano {plano}.",
    });
    expect(created.status).toBe(200);
    const r = await send({ modeloId: created.body.id, titulo: "Termo de adesão" });
    expect(r.body.titulo).toBe("Termo de adesão");
    await drain();
    const file = await t.app.inject({ method: "GET", url: `/api/contratos/${r.body.id}/arquivo`, headers: bearer(agent.token) });
    expect(await pdfText(file.rawPayload)).toContain("Eu, Maria da Silva Souza, CPF 529.982.247-25, adiro ao plano Fibra 500.");
    const def = list.body.find((m: { padrao: boolean }) => m.padrao);
    expect((await api(t, t.adminToken, "DELETE", `/api/contratos/modelos/${def.id}`)).status).toBe(400);
    expect((await api(t, t.adminToken, "DELETE", `/api/contratos/modelos/${created.body.id}`)).status).toBe(200);
  });
});

describe("the provider's identity on its contracts (issue 53)", () => {
  const COMPANY = {
    empresa_nome: "Provedor Exemplo Telecom Ltda.",
    empresa_cnpj: "11.222.333/0001-81",
    empresa_endereco: "Rua das Antenas, 100 — Centro, São Miguel do Oeste/SC",
  };
  const setCompany = async (v: Partial<typeof COMPANY>) => {
    for (const k of Object.keys(COMPANY) as (keyof typeof COMPANY)[]) await setSetting(k, v[k] ?? "");
  };
  const linesOf = (layout: string) => layout.split(/\n|\f/).map((l) => l.trim());
  /** The first page's first written line: the header when there is one. */
  const firstLine = (layout: string) => linesOf(layout.split("\f")[0]).find(Boolean);

  it("prints the company as the first page's header and as CONTRATADA, and fills {empresa}, {cnpj_empresa}, {endereco_empresa}", async () => {
    await setCompany(COMPANY);
    const tpl = await api(t, t.adminToken, "POST", "/api/contratos/modelos", {
      titulo: "Termo com a empresa",
      corpo: "A {empresa}, CNPJ {cnpj_empresa}, com sede em {endereco_empresa}, atende {nome}.",
    });
    expect(tpl.status).toBe(200);
    try {
      // the CNPJ is kept without its mask, printed with it
      const listed = await api(t, t.adminToken, "GET", "/settings");
      expect(listed.body.find((r: { key: string }) => r.key === "empresa_cnpj").value).toBe("11222333000181");

      // the default template: the header, the parties
      const { id } = await sentContract();
      const { pdf, texto } = await contractPdf(id);
      const layout = await pdfLayoutText(pdf);
      const lines = linesOf(layout);
      expect(firstLine(layout)).toBe("Provedor Exemplo Telecom Ltda.");
      expect(lines).toContain("CNPJ: 11.222.333/0001-81");
      expect(lines).toContain("Rua das Antenas, 100 — Centro, São Miguel do Oeste/SC");
      expect(words(layout)).toContain(
        "CONTRATADA: Provedor Exemplo Telecom Ltda., inscrita no CNPJ sob o nº 11.222.333/0001-81, com sede em Rua das Antenas, 100 — Centro, São Miguel do Oeste/SC, doravante CONTRATADA.",
      );
      // the signature block names the CONTRATADA after the CONTRATANTE
      const block = lines.lastIndexOf("CONTRATANTE: Maria da Silva Souza");
      expect(block).toBeGreaterThan(0);
      expect(lines.slice(block).indexOf("CONTRATADA: Provedor Exemplo Telecom Ltda.")).toBeGreaterThan(0);
      expect(lines.slice(block)).toContain("CNPJ: 11.222.333/0001-81");
      expect(texto).not.toMatch(/\{(empresa|cnpj_empresa|endereco_empresa)\}/);
      expect(layout).not.toContain("cabeçalho");
      expect(layout).not.toContain("________________,");

      // a template of the admins' own
      const r = await send({ modeloId: tpl.body.id });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      await drain();
      const own = await pdfLayoutText((await contractPdf(r.body.id)).pdf);
      expect(words(own)).toContain(
        "A Provedor Exemplo Telecom Ltda., CNPJ 11.222.333/0001-81, com sede em Rua das Antenas, 100 — Centro, São Miguel do Oeste/SC, atende Maria da Silva Souza.",
      );
      expect(own).not.toContain("{empresa}");
      expect(own).not.toContain("{cnpj_empresa}");
    } finally {
      await setCompany({});
      await api(t, t.adminToken, "DELETE", `/api/contratos/modelos/${tpl.body.id}`);
    }
  });

  it("refuses a CNPJ with wrong check digits (400), keeps a valid one without its mask", async () => {
    for (const bad of ["11.222.333/0001-82", "11222333000180", "1234", "11.111.111/1111-11", "11.222.333/0001-81!"]) {
      const r = await t.app.inject({
        method: "PUT",
        url: "/settings/empresa_cnpj",
        headers: bearer(t.adminToken),
        payload: { value: bad },
      });
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().error).toBe("ERR_VALIDATION");
    }
    await setSetting("empresa_cnpj", " 11222333000181 ");
    const listed = await api(t, t.adminToken, "GET", "/settings");
    expect(listed.body.find((r: { key: string }) => r.key === "empresa_cnpj").value).toBe("11222333000181");
    // an agent's 'Novo Contrato' preview reads it, as the PDF prints it
    const theirs = await api(t, agent.token, "GET", "/settings");
    expect(theirs.body.find((r: { key: string }) => r.key === "empresa_cnpj")?.value).toBe("11222333000181");
    await setSetting("empresa_cnpj", "");
  });

  it("without the identity: no header, and blanks to fill where the company goes", async () => {
    await setCompany({});
    const { id } = await sentContract();
    const { pdf, texto } = await contractPdf(id);
    const layout = await pdfLayoutText(pdf);
    const lines = linesOf(layout);
    // the title comes first: nothing pretends to be a header
    expect(firstLine(layout)).toBe(DEFAULT_CONTRACT_TEMPLATE.titulo);
    expect(layout).not.toContain("cabeçalho");
    expect(words(texto)).toContain(
      "CONTRATADA: ________________, inscrita no CNPJ sob o nº ________________, com sede em ________________,",
    );
    expect(lines).toContain("CONTRATADA: ________________");
    expect(lines).toContain("CNPJ: ________________");
  });

  it("the evidence page says nothing about witnesses when none are configured, and keeps its sentence when they are", async () => {
    const sign = async () => {
      const { id, token } = await sentContract();
      const hash = await docHash(token);
      expect((await post(token, "/cpf", { cpf5: "52998" })).statusCode).toBe(200);
      const ok = await post(token, "/aceite", { cpf5: "52998", nome: "Maria da Silva Souza", aceito: true, documentoSha256: hash });
      expect(ok.statusCode, ok.body).toBe(200);
      const file = await t.app.inject({ method: "GET", url: `/api/contratos/${id}/arquivo`, headers: bearer(agent.token) });
      const pages = (await pdfLayoutText(file.rawPayload)).split("\f");
      const evidence = pages.find((p) => p.includes("REGISTRO DE ASSINATURA"));
      expect(evidence).toBeDefined();
      return words(evidence ?? "");
    };
    const witnesses = { contrato_nome1: "Carlos Testemunha", contrato_nome2: "Dora Testemunha" };
    for (const k of Object.keys(witnesses)) await setSetting(k, "");
    try {
      const none = await sign();
      expect(none).toContain("2.200-2/2001");
      expect(none).not.toMatch(/testemunha/i);
      expect(none).not.toContain("constam da última página");
    } finally {
      for (const [k, v] of Object.entries(witnesses)) await setSetting(k, v);
    }
    const named = await sign();
    expect(named).toContain("Testemunhas indicadas: Carlos Testemunha (CPF 111.444.777-35)");
    expect(named).toContain("As testemunhas indicadas constam da última página do contrato.");
  });

  it("a stored default still word for word the old text (its CONTRATADA in a header) gets the new one at start; an edited one stays", async () => {
    const list = await api(t, t.adminToken, "GET", "/api/contratos/modelos");
    const def = list.body.find((m: { padrao: boolean }) => m.padrao);
    const edited = `${PREVIOUS_DEFAULT_CORPO}\n\n6. FORO. Comarca de São Miguel do Oeste.`;
    const other = await api(t, t.adminToken, "POST", "/api/contratos/modelos", { titulo: "Editado", corpo: edited });
    try {
      await t.ctx.db.execute(sql`update contract_templates set corpo = ${PREVIOUS_DEFAULT_CORPO} where id = ${def.id}`);
      const [{ version }] = (await t.ctx.db.execute(sql`select version from contract_templates where id = ${def.id}`)).rows as {
        version: number;
      }[];
      await ensureDefaultTemplate(t.ctx.db);
      const { rows } = await t.ctx.db.execute(
        sql`select id, corpo, version from contract_templates where id in (${def.id}, ${other.body.id})`,
      );
      // PostgreSQL answers a bigserial as text: the ids compared as numbers on both engines
      const byId = new Map((rows as { id: number | string; corpo: string; version: number | string }[]).map((r) => [Number(r.id), r]));
      expect(byId.get(def.id)?.corpo).toBe(DEFAULT_CONTRACT_TEMPLATE.corpo);
      expect(Number(byId.get(def.id)?.version)).toBe(Number(version) + 1);
      expect(byId.get(other.body.id)?.corpo).toBe(edited);
    } finally {
      await api(t, t.adminToken, "DELETE", `/api/contratos/modelos/${other.body.id}`);
    }
  });
});

describe("the signing link behind a proxy (issue 53)", () => {
  it("starts with the public address (setting publicUrl), not the address the request came to; urlContrato still wins", async () => {
    await setSetting("publicUrl", "https://atendimento.provedor.test/balcao");
    try {
      const before = (await phoneOf(sim, NUMBER)).length;
      expect((await send()).status).toBe(200);
      await drain();
      const link = (await phoneOf(sim, NUMBER)).slice(before).find((m) => m.fromMe && /\/assinar\//.test(m.body ?? ""));
      expect(link?.body).toMatch(/https:\/\/atendimento\.provedor\.test\/balcao\/assinar\/[A-Za-z0-9_-]+/);
      expect(link?.body).not.toContain("localhost");

      await setSetting("urlContrato", "https://contratos.provedor.test");
      const again = (await phoneOf(sim, NUMBER)).length;
      expect((await send()).status).toBe(200);
      await drain();
      const own = (await phoneOf(sim, NUMBER)).slice(again).find((m) => m.fromMe && /\/assinar\//.test(m.body ?? ""));
      expect(own?.body).toMatch(/https:\/\/contratos\.provedor\.test\/assinar\//);
    } finally {
      await setSetting("publicUrl", "");
      await setSetting("urlContrato", "");
    }
  });
});
