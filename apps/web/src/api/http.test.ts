import { describe, expect, it, vi } from "vitest";
import { ApiError, TOKEN_KEY, createHttpClient } from "./http";

type Handler = (url: string, init: RequestInit) => Response;

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const user = { id: 1, name: "Admin", email: "a@b.c", profile: "admin", queues: [], createdAt: "", updatedAt: "" };

function setup(handler: Handler, token = "old-token") {
  const calls: { url: string; auth?: string; method?: string }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, method: init.method, auth: (init.headers as Record<string, string> | undefined)?.authorization });
    return handler(url, init);
  });
  const storage = memoryStorage({ [TOKEN_KEY]: token });
  const client = createHttpClient({ fetch: fetch as unknown as typeof globalThis.fetch, storage });
  const logout = vi.fn();
  client.onLogout(logout);
  return { client, calls, storage, logout };
}

describe("http client session handling", () => {
  it("sends the stored token as a bearer header", async () => {
    const { client, calls } = setup(() => json(200, []));
    await client.get("/queue");
    expect(calls[0].auth).toBe("Bearer old-token");
  });

  it("on a 403 refreshes once, stores the new token and retries with it", async () => {
    const { client, calls, storage, logout } = setup((url, init) => {
      if (url.endsWith("/auth/refresh_token")) return json(200, { token: "new-token", user });
      const auth = (init.headers as Record<string, string>).authorization;
      return auth === "Bearer new-token" ? json(200, [{ id: 7 }]) : json(403, { error: "ERR_INVALID_TOKEN" });
    });
    await expect(client.get("/queue")).resolves.toEqual([{ id: 7 }]);
    expect(calls.map((c) => c.url)).toEqual(["/queue", "/auth/refresh_token", "/queue"]);
    expect(storage.getItem(TOKEN_KEY)).toBe("new-token");
    expect(logout).not.toHaveBeenCalled();
  });

  it("retries only once: a second 403 is an error, not a loop", async () => {
    const { client, calls } = setup((url) =>
      url.endsWith("/auth/refresh_token") ? json(200, { token: "t2", user }) : json(403, { error: "ERR_INVALID_TOKEN" }),
    );
    await expect(client.get("/queue")).rejects.toMatchObject({ status: 403, code: "ERR_INVALID_TOKEN" });
    expect(calls.filter((c) => c.url.endsWith("/auth/refresh_token"))).toHaveLength(1);
    expect(calls.filter((c) => c.url === "/queue")).toHaveLength(2);
  });

  it("parallel 403s share a single refresh", async () => {
    let refreshes = 0;
    const { client } = setup((url, init) => {
      if (url.endsWith("/auth/refresh_token")) {
        refreshes++;
        return json(200, { token: "new-token", user });
      }
      return (init.headers as Record<string, string>).authorization === "Bearer new-token"
        ? json(200, {})
        : json(403, { error: "ERR_INVALID_TOKEN" });
    });
    await Promise.all([client.get("/a"), client.get("/b"), client.get("/c")]);
    expect(refreshes).toBe(1);
  });

  it("a failed refresh logs out and drops the token", async () => {
    const { client, storage, logout } = setup((url) =>
      url.endsWith("/auth/refresh_token") ? json(401, { error: "ERR_SESSION_EXPIRED" }) : json(403, { error: "ERR_INVALID_TOKEN" }),
    );
    await expect(client.get("/queue")).rejects.toBeInstanceOf(ApiError);
    expect(logout).toHaveBeenCalledTimes(1);
    expect(storage.getItem(TOKEN_KEY)).toBeNull();
  });

  it("a 401 logs out without trying a refresh", async () => {
    const { client, calls, storage, logout } = setup(() => json(401, { error: "ERR_SESSION_EXPIRED" }));
    await expect(client.get("/contacts")).rejects.toMatchObject({ status: 401, code: "ERR_SESSION_EXPIRED" });
    expect(logout).toHaveBeenCalledTimes(1);
    expect(storage.getItem(TOKEN_KEY)).toBeNull();
    expect(calls.some((c) => c.url.includes("refresh"))).toBe(false);
  });

  it("a 403 for a permission (not a token) problem is not refreshed", async () => {
    const { client, calls, logout } = setup(() => json(403, { error: "ERR_NO_PERMISSION" }));
    await expect(client.delete("/contacts/1")).rejects.toMatchObject({ code: "ERR_NO_PERMISSION" });
    expect(calls).toHaveLength(1);
    expect(logout).not.toHaveBeenCalled();
  });

  it("a wrong password at login does not log out", async () => {
    const { client, logout } = setup(() => json(401, { error: "ERR_INVALID_CREDENTIALS" }), "");
    await expect(client.post("/auth/login", { email: "a@b.c", password: "x" })).rejects.toMatchObject({ code: "ERR_INVALID_CREDENTIALS" });
    expect(logout).not.toHaveBeenCalled();
  });

  it("keeps the field messages of a validation error and the raw text of a non-JSON answer", async () => {
    const { client } = setup((url) =>
      url === "/contacts"
        ? json(400, { error: "ERR_VALIDATION", fields: { name: ["Too Short!"] } })
        : new Response("Bad Gateway", { status: 502 }),
    );
    await expect(client.post("/contacts", {})).rejects.toMatchObject({ code: "ERR_VALIDATION", fields: { name: ["Too Short!"] } });
    await expect(client.get("/x")).rejects.toMatchObject({ status: 502, code: "Bad Gateway" });
  });
});

describe("http client: requests that create something", () => {
  it("a lost answer is sent again with the same Idempotency-Key; a refusal is not retried", async () => {
    const keys: (string | undefined)[] = [];
    let n = 0;
    const { client } = setup((_url, init) => {
      keys.push((init.headers as Record<string, string>)["idempotency-key"]);
      if (++n === 1) throw new TypeError("Failed to fetch");
      if (n === 2) return json(503, { error: "ERR_INTERNAL" });
      return json(200, [{ id: 7 }]);
    });
    expect(await client.idempotent("/messages/1", { body: { body: "oi" } }, "k-1")).toEqual([{ id: 7 }]);
    expect(keys).toEqual(["k-1", "k-1", "k-1"]);

    const refused = setup(() => json(409, { error: "ERR_TICKET_NOT_OPEN" }));
    await expect(refused.client.idempotent("/messages/1", { body: { body: "oi" } }, "k-2")).rejects.toMatchObject({ status: 409 });
    expect(refused.calls).toHaveLength(1);
  });
});
