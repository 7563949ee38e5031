import { json, startFake, wait } from "./http-fake.js";

/**
 * A fake MK-AUTH REST API from shared/reference/mkauth.md: `GET /api/` with Basic
 * Client_Id:Client_Secret answers a raw JWT whose exp the test picks; Bearer calls refused with
 * 401 once the token is expired (by the fake's own clock) or revoked. The documented calls
 * (cliente/listar, titulo/aberto, PUT cliente/editar, chamado/inserir, plano/listagem) or, in
 * `legacy` mode, only the ones seen in peer code (cliente/show/{cpf} with dados_cliente,
 * titulo/titulos/{cpf}, cliente/desbloqueio/{uuid}).
 */

export const MK_ID = "client-id-1";
export const MK_SECRET = "client-secret-xyz";

export interface MkCustomer {
  login: string;
  nome: string;
  cpf_cnpj: string;
  uuid_cliente: string;
  bloqueado: "sim" | "nao";
  plano: string;
  celular: string;
  endereco: string;
  numero: string;
  bairro: string;
  cidade: string;
  titulos: { titulo: string; uuid_lanc: string; valor: string; datavenc: string; linhadig: string; pix: string | null; status: string }[];
}

export function sampleMkCustomers(): MkCustomer[] {
  return [
    {
      login: "joao.pppoe",
      nome: "JOAO PEREIRA",
      cpf_cnpj: "111.444.777-35",
      uuid_cliente: "uuid-joao",
      bloqueado: "sim",
      plano: "100MEGA",
      celular: "(11) 98765-4321",
      endereco: "Rua A",
      numero: "1",
      bairro: "Vila",
      cidade: "São Paulo",
      titulos: [
        {
          titulo: "501",
          uuid_lanc: "lanc-501",
          valor: "110.00",
          datavenc: "2026-11-05 00:00:00",
          linhadig: "00190.00009 01234.567890 12345.678901 1 11110000011000",
          pix: "00020126...MKPIX501",
          status: "aberto",
        },
        {
          titulo: "502",
          uuid_lanc: "lanc-502",
          valor: "110.00",
          datavenc: "2026-12-05 00:00:00",
          linhadig: "00190.00009 01234.567890 12345.678902 2 11110000011000",
          pix: null,
          status: "aberto",
        },
        {
          titulo: "499",
          uuid_lanc: "lanc-499",
          valor: "110.00",
          datavenc: "2026-10-05 00:00:00",
          linhadig: "x",
          pix: null,
          status: "pago",
        },
      ],
    },
  ];
}

export interface FakeMkOptions {
  customers?: MkCustomer[];
  /** token lifetime in seconds (the wiki's sample: 600) */
  ttlS?: number;
  legacy?: boolean;
  /** the fake's clock in ms (tests pass their fake clock's) */
  nowMs?: () => number;
}

export async function startFakeMkAuth(opts: FakeMkOptions = {}) {
  const customers = opts.customers ?? sampleMkCustomers();
  const state = {
    ttlS: opts.ttlS ?? 600,
    legacy: opts.legacy ?? false,
    /** the fake's "now" offset in seconds (a test moves it to expire tokens) */
    skewS: 0,
    issued: 0,
    revoked: new Set<string>(),
    slowMs: 0,
  };
  const nowMs = opts.nowMs ?? (() => Date.now());
  const now = () => Math.floor(nowMs() / 1000) + state.skewS;
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const digits = (s: unknown) => String(s ?? "").replace(/\D/g, "");
  const edits: { uuid: string; bloqueado: string }[] = [];

  const fake = await startFake(async (req, res) => {
    if (state.slowMs) await wait(state.slowMs);
    if (req.method === "GET" && (req.path === "/api/" || req.path === "/api")) {
      const expected = `Basic ${Buffer.from(`${MK_ID}:${MK_SECRET}`).toString("base64")}`;
      if (req.headers.authorization !== expected) return json(res, 401, { error: "Acesso negado" });
      state.issued++;
      const iat = now();
      const jwt = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ iat, exp: iat + state.ttlS, n: state.issued })}.c2lnbmF0dXJl`;
      return void res.writeHead(200, { "content-type": "text/plain" }).end(jwt);
    }
    const auth = String(req.headers.authorization ?? "");
    const jwt = auth.startsWith("Bearer ") ? auth.slice(7) : "";
    let exp = 0;
    try {
      exp = JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString()).exp;
    } catch {}
    if (!jwt || state.revoked.has(jwt) || exp <= now()) return json(res, 401, { error: "Token expirado" });

    const p = req.path.replace(/^\/api\//, "");
    const find = (pred: (c: MkCustomer) => boolean) => customers.find(pred);
    const view = (c: MkCustomer) => {
      const { titulos: _t, ...rest } = c;
      return rest;
    };
    if (!state.legacy && req.method === "GET" && p.startsWith("cliente/listar/")) {
      const filter = decodeURIComponent(p.slice("cliente/listar/".length));
      const m = /cpf_cnpj=([\d.\-/]+)/.exec(filter);
      const list = m ? customers.filter((c) => digits(c.cpf_cnpj) === digits(m[1])) : customers;
      return json(res, 200, { clientes: list.map(view) });
    }
    if (state.legacy && req.method === "GET" && p.startsWith("cliente/show/")) {
      const c = find((x) => digits(x.cpf_cnpj) === digits(p.split("/")[2]));
      if (!c) return void res.writeHead(200, { "content-type": "application/json" }).end("NULL");
      return json(res, 200, { dados_cliente: { ...view(c) } });
    }
    if (!state.legacy && req.method === "GET" && p.startsWith("titulo/aberto/")) {
      const c = find((x) => x.login === decodeURIComponent(p.split("/")[2]) || digits(x.cpf_cnpj) === p.split("/")[2]);
      const titulos = (c?.titulos ?? []).filter((t) => t.status === "aberto");
      return json(res, 200, { Total: titulos.length, titulos });
    }
    if (state.legacy && req.method === "GET" && p.startsWith("titulo/titulos/")) {
      const c = find((x) => digits(x.cpf_cnpj) === p.split("/")[2]);
      return json(res, 200, { titulos: c?.titulos ?? [] });
    }
    if (req.method === "GET" && p.startsWith("titulo/show/")) {
      const t = customers.flatMap((c) => c.titulos).find((x) => x.uuid_lanc === p.split("/")[2]);
      if (!t) return json(res, 404, { error: "não encontrado" });
      return json(res, 200, { ...t, pix: t.pix ?? `MKPIX-SHOW-${t.titulo}` });
    }
    if (!state.legacy && req.method === "PUT" && p === "cliente/editar") {
      const c = find((x) => x.uuid_cliente === req.body.uuid);
      if (!c) return json(res, 404, { error: "cliente não encontrado" });
      edits.push({ uuid: String(req.body.uuid), bloqueado: String(req.body.bloqueado) });
      c.bloqueado = req.body.bloqueado === "nao" ? "nao" : "sim";
      return json(res, 200, { mensagem: "Cliente atualizado" });
    }
    if (state.legacy && req.method === "GET" && p.startsWith("cliente/desbloqueio/")) {
      const c = find((x) => x.uuid_cliente === p.split("/")[2]);
      if (!c) return json(res, 404, { error: "cliente não encontrado" });
      edits.push({ uuid: c.uuid_cliente, bloqueado: "nao" });
      c.bloqueado = "nao";
      return json(res, 200, { mensagem: "Desbloqueado" });
    }
    if (req.method === "POST" && p === "chamado/inserir")
      return json(res, 200, { mensagem: "Chamado inserido", chamado: `MK${req.body.login}` });
    if (req.method === "GET" && p === "plano/listagem") return json(res, 200, { planos: [] });
    return json(res, 404, { error: "rota não encontrada" });
  });
  return { ...fake, state, customers, edits };
}
