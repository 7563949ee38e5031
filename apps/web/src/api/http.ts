import type { AuthAnswer } from "@balcao/contract";

export const TOKEN_KEY = "token";

/** A failed call: the HTTP status and, when the server sent one, its ERR_… code and field messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The `error` of the answer body (an ERR_… code), or the raw text of a non-JSON answer. */
    readonly code: string | undefined,
    readonly fields?: Record<string, string[]>,
  ) {
    super(code ?? `HTTP ${status}`);
    this.name = "ApiError";
  }
}

/** 403 codes that are about permissions or a wrong password, not a stale token: refreshing would not help. */
const NOT_A_TOKEN_PROBLEM = new Set([
  "ERR_NO_PERMISSION",
  "ERR_USER_CREATION_DISABLED",
  "ERR_INVALID_CREDENTIALS",
  "ERR_SETTINGS_LOCKED",
  "ERR_WRONG_SETTINGS_PASSWORD",
]);

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  form?: FormData;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface HttpClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
}

type Listener<T> = (value: T) => void;

export function createHttpClient(opts: HttpClientOptions = {}) {
  const baseUrl = opts.baseUrl ?? "";
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const storage = opts.storage ?? localStorage;
  const logoutListeners = new Set<Listener<void>>();
  const refreshListeners = new Set<Listener<AuthAnswer>>();
  let refreshing: Promise<AuthAnswer> | null = null;

  const getToken = () => storage.getItem(TOKEN_KEY);
  const setToken = (token: string | null) => (token ? storage.setItem(TOKEN_KEY, token) : storage.removeItem(TOKEN_KEY));

  function url(path: string, query?: RequestOptions["query"]) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== "") qs.set(k, String(v));
    const s = qs.toString();
    return `${baseUrl}${path}${s ? `?${s}` : ""}`;
  }

  async function toError(res: Response): Promise<ApiError> {
    const text = await res.text().catch(() => "");
    try {
      const body = JSON.parse(text) as { error?: unknown; message?: unknown; fields?: Record<string, string[]> };
      const code = typeof body.error === "string" ? body.error : typeof body.message === "string" ? body.message : undefined;
      return new ApiError(res.status, code || undefined, body.fields);
    } catch {
      return new ApiError(res.status, text.trim() || undefined);
    }
  }

  function send(method: string, path: string, o: RequestOptions) {
    const headers: Record<string, string> = { accept: "application/json", ...o.headers };
    const token = getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (o.form) body = o.form;
    else if (o.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(o.body);
    }
    return doFetch(url(path, o.query), { method, headers, body, credentials: "include", signal: o.signal });
  }

  function logout() {
    setToken(null);
    for (const l of logoutListeners) l();
  }

  /** One refresh at a time: parallel 403s share it. */
  function refresh(): Promise<AuthAnswer> {
    refreshing ??= (async () => {
      const res = await doFetch(url("/auth/refresh_token"), {
        method: "POST",
        headers: { accept: "application/json" },
        credentials: "include",
      });
      if (!res.ok) throw await toError(res);
      const answer = (await res.json()) as AuthAnswer;
      setToken(answer.token);
      for (const l of refreshListeners) l(answer);
      return answer;
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function request<T>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    const isAuthCall = path.startsWith("/auth/");
    let res = await send(method, path, o);
    if (res.status === 403 && !isAuthCall) {
      const err = await toError(res.clone());
      if (!err.code || !NOT_A_TOKEN_PROBLEM.has(err.code)) {
        try {
          await refresh();
        } catch (refreshError) {
          logout();
          throw refreshError;
        }
        res = await send(method, path, o);
      }
    }
    if (res.status === 401 && !isAuthCall) {
      const err = await toError(res);
      logout();
      throw err;
    }
    if (!res.ok) throw await toError(res);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * A call that creates something (a message), sent with an Idempotency-Key: when the answer is
   * lost (network error, the server restarting) it is sent again with the same key, and the
   * server answers what the first one created instead of creating it twice.
   */
  async function idempotent<T>(path: string, o: Pick<RequestOptions, "body" | "form">, key: string, retries = 3): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request<T>("POST", path, { ...o, headers: { "idempotency-key": key } });
      } catch (err) {
        const lost =
          err instanceof TypeError || (err instanceof ApiError && (err.status === 502 || err.status === 503 || err.status === 504));
        if (!lost || attempt >= retries) throw err;
        await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
      }
    }
  }

  return {
    getToken,
    setToken,
    refresh,
    request,
    idempotent,
    get: <T>(path: string, query?: RequestOptions["query"], signal?: AbortSignal) => request<T>("GET", path, { query, signal }),
    post: <T>(path: string, body?: unknown) => request<T>("POST", path, { body }),
    put: <T>(path: string, body?: unknown) => request<T>("PUT", path, { body }),
    delete: <T>(path: string) => request<T>("DELETE", path),
    upload: <T>(path: string, form: FormData) => request<T>("POST", path, { form }),
    onLogout(l: Listener<void>) {
      logoutListeners.add(l);
      return () => logoutListeners.delete(l);
    },
    onRefresh(l: Listener<AuthAnswer>) {
      refreshListeners.add(l);
      return () => refreshListeners.delete(l);
    },
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;

/** The app's one client. */
export const http = createHttpClient();
