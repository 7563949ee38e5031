import type { BillingConnection, BillingContract, BillingInvoice } from "@balcao/contract";
import type { Clock } from "../../lib/pace.js";
import { localDate } from "../../lib/zoned-time.js";
import { BillingError, type BillingHttp, type HttpAnswer, jsonOf } from "./http.js";
import { type BillingConfig, type BillingSystem, digits, isoDate, money, str, strOrNull } from "./types.js";

/**
 * MK-AUTH through its REST API (wiki.mk-auth.com.br, api_token): `GET /api/` with HTTP Basic
 * Client_Id:Client_Secret answers a raw JWT (10 minutes); calls carry `Bearer <jwt>`. One token
 * per configured system, renewed 30 s before it expires, one renewal at a time; a 401 drops it and
 * the call is made once more with a new one.
 *
 * Documented calls first (shared/reference/mkauth.md §2), then the ones only seen in other
 * integrations' code (§3), each used only when the documented one is missing (404):
 *   lookup    cliente/listar/cpf_cnpj={doc}        → cliente/show/{doc} (dados_cliente)
 *   invoices  titulo/aberto/{login}                → titulo/titulos/{doc}
 *   unlock    PUT cliente/editar {uuid, bloqueado} → GET cliente/desbloqueio/{uuid}
 */

type Obj = Record<string, unknown>;
const RENEW_BEFORE_MS = 30_000;

export function createMkAuth(cfg: BillingConfig, http: BillingHttp, clock: Clock): BillingSystem {
  const base = cfg.url.replace(/\/+$/, "").replace(/\/api$/, "");
  let token: { jwt: string; expiresAt: number } | null = null;
  let renewing: Promise<string> | null = null;
  /** what we learned per contract (login → uuid, the customer's document) */
  const known = new Map<string, { uuid: string; document: string; blocked: boolean }>();

  async function newToken(): Promise<string> {
    const basic = Buffer.from(`${cfg.app}:${cfg.token}`).toString("base64");
    const answer = await http.send({ method: "GET", url: `${base}/api/`, headers: { authorization: `Basic ${basic}` }, idempotent: true });
    if (answer.status === 401 || answer.status === 403)
      throw new BillingError("auth", `MK-AUTH refused the client id/secret (${answer.status})`, answer.status);
    if (answer.status >= 400) throw new BillingError("http", `MK-AUTH /api/ answered ${answer.status}`, answer.status);
    let jwt = answer.text.trim();
    if (jwt.startsWith('"')) jwt = jwt.slice(1, -1);
    const parts = jwt.split(".");
    if (parts.length !== 3) throw new BillingError("bad_answer", "MK-AUTH /api/ did not answer a token");
    let exp = 0;
    try {
      exp = Number(JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")).exp) * 1000;
    } catch {
      throw new BillingError("bad_answer", "MK-AUTH token payload unreadable");
    }
    // a token without exp: assume the documented 10 minutes
    token = { jwt, expiresAt: Number.isFinite(exp) && exp > 0 ? exp : clock.now() + 600_000 };
    return jwt;
  }

  async function bearer(): Promise<string> {
    if (token && clock.now() < token.expiresAt - RENEW_BEFORE_MS) return token.jwt;
    renewing ??= newToken().finally(() => {
      renewing = null;
    });
    return renewing;
  }

  async function call(method: "GET" | "PUT" | "POST", path: string, body?: Obj): Promise<unknown> {
    const url = `${base}/api/${path}`;
    const once = async (): Promise<HttpAnswer> =>
      http.send({
        method,
        url,
        idempotent: method === "GET",
        headers: {
          authorization: `Bearer ${await bearer()}`,
          accept: "application/json",
          ...(body && { "content-type": "application/json" }),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    let answer = await once();
    if (answer.status === 401) {
      token = null;
      answer = await once();
    }
    if (answer.status === 401 || answer.status === 403)
      throw new BillingError("auth", `MK-AUTH refused ${path.split("/")[0]} (${answer.status})`, answer.status);
    if (answer.status === 404) throw new BillingError("not_found", `${path.split("/").slice(0, 2).join("/")} not found`, 404);
    if (answer.status >= 400) throw new BillingError("http", `MK-AUTH answered ${answer.status}`, answer.status);
    // a literal NULL body means "not found" in one integration
    if (/^null$/i.test(answer.text.trim())) return null;
    return jsonOf(answer, url);
  }

  const isMissing = (err: unknown) => err instanceof BillingError && err.kind === "not_found";

  function toContract(c: Obj): BillingContract {
    const login = str(c.login);
    const blocked = str(c.bloqueado).toLowerCase() === "sim";
    const cancelled = str(c.cli_ativado).toLowerCase() === "n" || str(c.status).toLowerCase() === "cancelado";
    const document = digits(c.cpf_cnpj);
    if (login) known.set(login, { uuid: str(c.uuid_cliente ?? c.uuid), document, blocked });
    return {
      id: login,
      customerName: str(c.nome),
      document,
      status: cancelled ? "cancelled" : blocked ? "suspended" : login ? "active" : "unknown",
      statusLabel: cancelled ? "Cancelado" : blocked ? "Bloqueado" : "Liberado",
      plan: str(c.plano),
      address: [c.endereco, c.numero, c.bairro, c.cidade].map(str).filter(Boolean).join(", "),
      city: str(c.cidade),
      // MK-AUTH has no POP of its own; installs name it in the client's "pop" or its concentrator
      pop: str(c.pop ?? c.concentrador),
      phones: [c.celular, c.fone, c.telefone, c.celular2].map(digits).filter(Boolean),
    };
  }

  /** the customer list in whatever wrapping the install uses */
  function listOf(body: unknown): Obj[] {
    if (!body) return [];
    if (Array.isArray(body)) return body as Obj[];
    const b = body as Obj;
    for (const k of ["clientes", "dados", "data", "registros"]) if (Array.isArray(b[k])) return b[k] as Obj[];
    if (b.dados_cliente && typeof b.dados_cliente === "object") return [b.dados_cliente as Obj];
    if (b.login) return [b];
    return [];
  }

  function toInvoice(t: Obj, contractId: string): BillingInvoice {
    const id = str(t.uuid_lanc ?? t.titulo ?? t.id ?? t.uuid);
    const titulo = str(t.titulo ?? t.id);
    return {
      id,
      contractId,
      dueDate: isoDate(t.datavenc ?? t.vencimento),
      amount: money(t.valor),
      digitableLine: strOrNull(t.linhadig),
      pixCode: strOrNull(t.pix ?? t.qrcode ?? t.pix_copia_cola),
      pdfUrl: strOrNull(t.url ?? t.link) ?? (titulo ? `${base}/boleto/21boleto.php?titulo=${encodeURIComponent(titulo)}` : null),
      overdue: false,
    };
  }

  const openStatus = (t: Obj) => {
    const s = str(t.status).toLowerCase();
    return !s || s === "aberto" || s === "vencido" || s === "em aberto";
  };

  return {
    name: "MK-AUTH",
    async findByDocument(document) {
      const doc = digits(document);
      try {
        return listOf(await call("GET", `cliente/listar/cpf_cnpj=${doc}`))
          .map(toContract)
          .filter((c) => c.id);
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
      // seen in peer code only: cliente/show/{cpf} with dados_cliente
      try {
        return listOf(await call("GET", `cliente/show/${doc}`))
          .map(toContract)
          .filter((c) => c.id);
      } catch (err) {
        if (isMissing(err)) return [];
        throw err;
      }
    },
    async findByPhone() {
      // no phone search is documented: the bot then reveals only what a bill shows
      return [];
    },
    async openInvoices(contract) {
      let items: Obj[];
      try {
        const body = (await call("GET", `titulo/aberto/${encodeURIComponent(contract.id)}`)) as Obj | null;
        items = Array.isArray(body?.titulos) ? (body.titulos as Obj[]) : Array.isArray(body) ? (body as Obj[]) : [];
      } catch (err) {
        if (!isMissing(err)) throw err;
        const doc = known.get(contract.id)?.document || contract.document;
        const body = (await call("GET", `titulo/titulos/${doc}`)) as Obj | null;
        items = Array.isArray(body?.titulos) ? (body.titulos as Obj[]) : Array.isArray(body) ? (body as Obj[]) : [];
      }
      const now = localDate(new Date(clock.now()), cfg.timeZone);
      return items
        .filter(openStatus)
        .map((t) => toInvoice(t, contract.id))
        .filter((i) => i.id)
        .map((i) => ({ ...i, overdue: !!i.dueDate && i.dueDate < now }))
        .sort((a, b) => a.dueDate.localeCompare(b.dueDate));
    },
    async pixFor(_contract, invoice) {
      if (invoice.pixCode) return invoice.pixCode;
      try {
        const body = (await call("GET", `titulo/show/${encodeURIComponent(invoice.id)}`)) as Obj | null;
        const t = (body?.titulo && typeof body.titulo === "object" ? body.titulo : body) as Obj | null;
        return strOrNull(t?.pix ?? t?.qrcode);
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async unlock(contract) {
      const info = known.get(contract.id);
      if (!info?.uuid) throw new BillingError("bad_answer", "MK-AUTH gave no uuid_cliente for this customer");
      if (!info.blocked && contract.status !== "suspended") {
        return { unlocked: false, days: null, message: "A conexão não está bloqueada.", protocol: null };
      }
      try {
        await call("PUT", "cliente/editar", { uuid: info.uuid, bloqueado: "nao" });
      } catch (err) {
        if (!isMissing(err)) throw err;
        await call("GET", `cliente/desbloqueio/${encodeURIComponent(info.uuid)}`);
      }
      known.set(contract.id, { ...info, blocked: false });
      return { unlocked: true, days: cfg.unlockDays, message: "Desbloqueado", protocol: null };
    },
    async connection(contract): Promise<BillingConnection> {
      // MK-AUTH exposes no live session: the block flag is the best proxy
      const info = known.get(contract.id);
      let blocked = info?.blocked;
      if (blocked === undefined) {
        const list = await this.findByDocument(contract.document);
        blocked = list.find((c) => c.id === contract.id)?.status === "suspended";
      }
      return blocked
        ? { state: "blocked", message: "Bloqueado por pendência financeira" }
        : { state: "released", message: "Liberado (o MK-AUTH não informa se está online)" };
    },
    async openTicket(contract, text) {
      const body = (await call("POST", "chamado/inserir", {
        login: contract.id,
        assunto: "Outros",
        prioridade: "normal",
        msg: text,
      })) as Obj | null;
      return { protocol: strOrNull(body?.chamado ?? body?.protocolo ?? body?.id), message: str(body?.mensagem ?? body?.msg) };
    },
    async test() {
      await call("GET", "plano/listagem");
      return "MK-AUTH respondeu e aceitou o token";
    },
  };
}
