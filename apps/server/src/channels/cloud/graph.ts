import { type AllowList, OutgoingError, outgoingFetch } from "../../lib/outgoing-http.js";

/**
 * Meta's Graph API as the Cloud channel calls it: JSON or multipart requests with the
 * connection's bearer token, every one through lib/outgoing-http.ts (private addresses refused
 * unless allowed, one deadline, bodies capped). Errors come back as GraphError with Meta's
 * `error.code` (branch on it, not on the HTTP status), or `network` when no answer came — then
 * nobody knows whether the request reached Meta.
 */

export const DEFAULT_GRAPH_URL = "https://graph.facebook.com/v23.0";

export interface GraphOptions {
  baseUrl: string;
  allow: AllowList;
  timeoutMs?: number;
}

export class GraphError extends Error {
  constructor(
    /** HTTP status (0: no answer) */
    readonly status: number,
    /** Meta's error code (190 token, 131047 window, 130429 throughput…); 0 when none */
    readonly code: number,
    readonly title: string,
    /** no answer: the request may or may not have reached Meta */
    readonly network: boolean,
  ) {
    super(network ? `Graph API unreachable (${title})` : `Graph API error ${code} (HTTP ${status}): ${title}`);
    this.name = "GraphError";
  }
}

export class GraphClient {
  constructor(
    private readonly opts: GraphOptions,
    private readonly token: () => string,
  ) {}

  private url(path: string): string {
    return /^https?:\/\//.test(path) ? path : `${this.opts.baseUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
  }

  private async request(method: "GET" | "POST" | "DELETE", path: string, body?: { json?: unknown; form?: FormData }) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token()}` };
    let payload: string | Buffer | undefined;
    if (body?.json !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body.json);
    } else if (body?.form) {
      const req = new Request("http://form.invalid", { method: "POST", body: body.form });
      headers["content-type"] = req.headers.get("content-type") ?? "multipart/form-data";
      payload = Buffer.from(await req.arrayBuffer());
    }
    try {
      return await outgoingFetch(this.url(path), {
        allow: this.opts.allow,
        method,
        headers,
        body: payload,
        timeoutMs: this.opts.timeoutMs ?? 20_000,
        maxBytes: 110 * 1024 * 1024,
      });
    } catch (err) {
      if (err instanceof OutgoingError) throw new GraphError(0, 0, err.code, true);
      throw err;
    }
  }

  /** A JSON call; a non-2xx answer throws GraphError with Meta's code. */
  async call<T>(method: "GET" | "POST" | "DELETE", path: string, body?: { json?: unknown; form?: FormData }): Promise<T> {
    const res = await this.request(method, path, body);
    let parsed: unknown;
    try {
      parsed = res.body.length ? JSON.parse(res.text()) : {};
    } catch {
      parsed = undefined;
    }
    if (res.status >= 200 && res.status < 300 && parsed !== undefined) return parsed as T;
    const error = (parsed as { error?: { code?: number; message?: string; error_data?: { details?: string } } } | undefined)?.error;
    throw new GraphError(res.status, Number(error?.code ?? 0), error?.error_data?.details ?? error?.message ?? `HTTP ${res.status}`, false);
  }

  /** The bytes at a media URL (it needs the same bearer token). */
  async download(url: string): Promise<Buffer> {
    const res = await this.request("GET", url);
    if (res.status < 200 || res.status > 299) throw new GraphError(res.status, 0, `media download HTTP ${res.status}`, false);
    return res.body;
  }
}

/** What the channel does with a Graph error code (reference §7). */
export type ErrorAction = "disconnect" | "fail" | "retry";

export function actionOf(err: GraphError): ErrorAction {
  if (err.network) return "retry";
  if (err.code === 190 || (err.code === 0 && err.status === 401)) return "disconnect";
  if ([130429, 131056, 80007, 4, 131000, 131057, 1, 2].includes(err.code) || err.status >= 500 || err.status === 429) return "retry";
  return "fail";
}

/** The reason shown with a message WhatsApp refused, in Portuguese. */
export function reasonOf(code: number, title: string): string {
  switch (code) {
    case 131047:
      return "janela de 24 h fechada — envie um modelo";
    case 131026:
      return "mensagem não entregue: o número não pode recebê-la (sem WhatsApp, app antigo ou bloqueio) (131026)";
    case 131049:
      return "o WhatsApp decidiu não entregar esta mensagem de marketing agora (131049)";
    case 131050:
      return "o cliente parou de receber mensagens de marketing (131050)";
    case 131051:
      return "tipo de mensagem não suportado (131051)";
    case 132000:
      return "número de variáveis do modelo não confere (132000)";
    case 132001:
      return "modelo inexistente ou não aprovado neste idioma (132001)";
    case 190:
      return "token de acesso inválido ou expirado (190)";
    case 368:
    case 131031:
      return `conta bloqueada pela Meta (${code})`;
    default:
      return `recusada pelo WhatsApp: ${title} (${code})`;
  }
}

/** Rate limits: a `failed` status with one of these is sent again later, not failed. */
export const RATE_LIMIT_CODES = new Set([130429, 131056, 80007]);
