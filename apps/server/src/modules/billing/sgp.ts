import type { BillingConnection, BillingContract, BillingInvoice, BillingContractStatus, UnlockResult } from "@balcao/contract";
import type { Clock } from "../../lib/pace.js";
import { localDate } from "../../lib/zoned-time.js";
import { BillingError, type BillingHttp, jsonOf } from "./http.js";
import { type BillingConfig, type BillingSystem, digits, isoDate, money, str, strOrNull } from "./types.js";

/**
 * SGP (TSMX) through its URA API: `app` + `token` in the body of every POST (the vendor's
 * recommended method; never in the query string). The URA lives under `/api/ura` on current
 * installs and `/ws/ura` on older ones: an integrationUrl ending in either is used as is,
 * otherwise `/api/ura` is tried first and a 404 switches (and sticks) to `/ws/ura`.
 * Field names are the ones public integrations observe (shared/reference/sgp.md).
 */

const STATUS: Record<number, BillingContractStatus> = {
  1: "active",
  2: "inactive",
  3: "cancelled",
  4: "suspended",
  5: "inactive",
  6: "new",
  7: "reduced",
};
const LABEL_STATUS: Record<string, BillingContractStatus> = {
  ativo: "active",
  inativo: "inactive",
  cancelado: "cancelled",
  suspenso: "suspended",
  novo: "new",
  "ativo v. reduzida": "reduced",
};

type Obj = Record<string, unknown>;

export function createSgp(cfg: BillingConfig, http: BillingHttp, clock: Clock): BillingSystem {
  const base = cfg.url.replace(/\/+$/, "");
  const fixed = /\/(api|ws)\/ura$/.test(base);
  let prefix = fixed ? base : `${base}/api/ura`;

  async function call(path: string, params: Obj, opts: { json?: boolean; idempotent?: boolean } = {}): Promise<unknown> {
    const tryOnce = async (pfx: string) => {
      const url = `${pfx}/${path}`;
      const body = { ...params, app: cfg.app, token: cfg.token };
      const answer = await http.send({
        method: "POST",
        url,
        idempotent: opts.idempotent ?? true,
        headers: opts.json
          ? { "content-type": "application/json", accept: "application/json" }
          : { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: opts.json
          ? JSON.stringify(body)
          : new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString(),
      });
      if (answer.status === 401 || answer.status === 403)
        throw new BillingError("auth", `SGP refused the app/token (${answer.status})`, answer.status);
      if (answer.status === 404) throw new BillingError("not_found", `${path} not found`, 404);
      if (answer.status >= 400) throw new BillingError("http", `SGP ${path} answered ${answer.status}`, answer.status);
      return jsonOf(answer, url);
    };
    try {
      return await tryOnce(prefix);
    } catch (err) {
      if (!fixed && err instanceof BillingError && err.kind === "not_found" && prefix.endsWith("/api/ura")) {
        const old = `${base}/ws/ura`;
        const out = await tryOnce(old);
        prefix = old;
        return out;
      }
      throw err;
    }
  }

  function toContract(c: Obj): BillingContract {
    const code = Number(c.contratoStatus);
    const label = str(c.contratoStatusDisplay);
    const phones = (Array.isArray(c.telefones) ? c.telefones : [])
      .map((p) => digits(typeof p === "object" && p ? ((p as Obj).contato ?? (p as Obj).numero) : p))
      .filter(Boolean);
    return {
      id: str(c.contratoId),
      customerName: str(c.razaoSocial),
      document: digits(c.cpfCnpj),
      status: STATUS[code] ?? LABEL_STATUS[label.toLowerCase()] ?? "unknown",
      statusLabel: label || (STATUS[code] ? String(code) : "?"),
      plan: str(c.planointernet ?? c.servico_plano),
      address: [c.endereco_logradouro, c.endereco_numero, c.endereco_bairro, c.endereco_cidade].map(str).filter(Boolean).join(", "),
      city: str(c.endereco_cidade),
      // SGP names the contract's POP in one of these, depending on the version
      pop: str(c.pop ?? c.popNome ?? c.pop_nome),
      phones,
    };
  }

  function contractsOf(body: unknown): BillingContract[] {
    const list = (body as Obj | null)?.contratos;
    return Array.isArray(list) ? list.map((c) => toContract(c as Obj)).filter((c) => c.id) : [];
  }

  function byDue(a: BillingInvoice, b: BillingInvoice) {
    return a.dueDate.localeCompare(b.dueDate);
  }

  const today = () => localDate(new Date(clock.now()), cfg.timeZone);

  return {
    name: "SGP",
    async findByDocument(document) {
      return contractsOf(await call("consultacliente/", { cpfcnpj: digits(document) }));
    },
    async findByPhone(phone) {
      try {
        // SGP stores national numbers: without the country code
        const d = digits(phone);
        return contractsOf(await call("consultacliente/", { telefone: d.length >= 12 && d.startsWith("55") ? d.slice(2) : d }));
      } catch (err) {
        // an install that refuses a phone-only search: nothing found by phone
        if (err instanceof BillingError && (err.kind === "http" || err.kind === "not_found") && (err.status ?? 0) < 500) return [];
        throw err;
      }
    },
    async openInvoices(contract) {
      let list: BillingInvoice[];
      try {
        const body = (await call("titulos/", { contrato: contract.id, status: "abertos", limit: 250 })) as Obj | unknown[] | null;
        const items = Array.isArray(body) ? body : Array.isArray((body as Obj)?.titulos) ? ((body as Obj).titulos as unknown[]) : [];
        list = (items as Obj[])
          .filter((t) => !t.status || str(t.status).toLowerCase() === "aberto")
          .map((t) => ({
            id: str(t.id ?? t.numeroDocumento),
            contractId: contract.id,
            dueDate: isoDate(t.dataVencimento),
            amount: money(t.valorCorrigido ?? t.valor),
            digitableLine: strOrNull(t.linhaDigitavel),
            pixCode: strOrNull(t.codigoPix),
            pdfUrl: strOrNull(t.link ?? t.link_cobranca),
            overdue: false,
          }));
      } catch (err) {
        // older installs have no /titulos/: the 2ª via call, without opening an occurrence
        if (!(err instanceof BillingError && err.kind === "not_found")) throw err;
        const body = (await call("fatura2via/", { contrato: contract.id, nao_gerar_os: 1, faturas_abertas_todas: 1 })) as Obj | null;
        const items = Array.isArray(body?.links) ? (body.links as Obj[]) : [];
        list = items.map((t) => ({
          id: str(t.fatura),
          contractId: contract.id,
          dueDate: isoDate(t.vencimento),
          amount: money(t.valor),
          digitableLine: strOrNull(t.linhadigitavel),
          pixCode: strOrNull(t.codigopix),
          pdfUrl: strOrNull(t.link ?? t.link_cobranca),
          overdue: false,
        }));
      }
      const now = today();
      return list
        .filter((i) => i.id)
        .map((i) => ({ ...i, overdue: !!i.dueDate && i.dueDate < now }))
        .sort(byDue);
    },
    async pixFor(contract, invoice) {
      if (invoice.pixCode) return invoice.pixCode;
      try {
        const body = (await call(`pagamento/pix/${encodeURIComponent(invoice.id)}`, { contrato: contract.id })) as Obj | null;
        const b = (Array.isArray(body) ? body[0] : body) as Obj | null;
        return strOrNull(b?.codigoPix ?? b?.codigopix ?? b?.qrcode ?? b?.emv ?? (b?.pix as Obj | undefined)?.codigo);
      } catch (err) {
        if (err instanceof BillingError && !err.transient && err.kind !== "auth") return null;
        throw err;
      }
    },
    async unlock(contract, note) {
      const params = { contrato: contract.id, conteudo: note };
      let body: unknown;
      try {
        body = await call("liberacaopromessa/", params, { idempotent: false });
      } catch (err) {
        // one old script calls it promessapagamento
        if (!(err instanceof BillingError && err.kind === "not_found")) throw err;
        body = await call("promessapagamento/", params, { idempotent: false });
      }
      const b = ((Array.isArray(body) ? body[0] : body) ?? {}) as Obj;
      const unlocked = b.liberado === true || b.liberado === 1 || str(b.liberado) === "1" || str(b.liberado).toLowerCase() === "true";
      const days =
        b.liberado_dias !== undefined && b.liberado_dias !== null && str(b.liberado_dias) !== "" ? Number(b.liberado_dias) : null;
      const result: UnlockResult = {
        unlocked,
        days: Number.isFinite(days) ? days : null,
        message: str(b.msg) || (unlocked ? "Liberado" : "Não liberado"),
        protocol: strOrNull(b.protocolo),
      };
      return result;
    },
    async connection(contract): Promise<BillingConnection> {
      const body = (await call("verificaacesso/", { contrato: contract.id, status_all: 1 })) as Obj | null;
      const b = ((Array.isArray(body) ? body[0] : body) ?? {}) as Obj;
      const code = Number(b.status);
      const state: BillingConnection["state"] =
        code === 1 ? "online" : code === 2 ? "offline" : code === 3 ? "blocked" : code === 8 || code === 9 ? "maintenance" : "unknown";
      return { state, message: str(b.msg) };
    },
    async openTicket(contract, text) {
      const body = await call("chamado/", { contrato: contract.id, ocorrenciatipo: 5, conteudo: text }, { json: true, idempotent: false });
      const b = ((Array.isArray(body) ? body[0] : body) ?? {}) as Obj;
      return { protocol: strOrNull(b.protocolo), message: str(b.msg) };
    },
    async test() {
      await call("planoscontas/", {});
      return `SGP respondeu em ${prefix.slice(base.length) || prefix}`;
    },
  };
}
