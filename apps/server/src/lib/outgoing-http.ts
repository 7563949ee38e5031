import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";

/**
 * The one way out for HTTP requests to systems an admin names (billing systems, Typebot, media
 * fetched by URL, the Graph API, the AI endpoint):
 *
 *   const res = await outgoingFetch(url, { allow: ctx.config.allowedPrivateHosts, method: "POST",
 *     headers, body, timeoutMs: 5000, maxBytes: 1 << 20 });
 *   res.status, res.headers (lower-case names), res.body (Buffer), res.text(), res.url (after redirects)
 *
 * - Loopback, private, CGNAT, link-local (with the cloud metadata address), unique-local IPv6,
 *   IPv4-mapped IPv6 of those, multicast and reserved addresses are refused unless `allow` names
 *   them (ALLOWED_PRIVATE_HOSTS: host names, addresses or CIDR ranges). The check is made on the
 *   address the socket connects to (a custom DNS lookup at connect time), so a name resolving to
 *   127.0.0.1, or a name that changes its answer after a first check, is refused too.
 * - Redirects are followed by hand, each hop checked the same way, at most `maxRedirects` (3).
 *   Crossing to another origin drops Authorization and Cookie; a body is never re-sent elsewhere.
 * - One deadline (`timeoutMs`) for the whole exchange; every answer's body is read as a stream and
 *   cut at `maxBytes` (never held whole past the limit).
 * - Failures throw OutgoingError with an ERR_OUTGOING_* code and a message in our words (never the
 *   socket's text), so an open and a closed port of a refused address answer the same.
 */

export type OutgoingErrorCode =
  | "ERR_OUTGOING_BAD_URL"
  | "ERR_OUTGOING_PRIVATE_ADDRESS"
  | "ERR_OUTGOING_DNS"
  | "ERR_OUTGOING_UNREACHABLE"
  | "ERR_OUTGOING_TIMEOUT"
  | "ERR_OUTGOING_TLS"
  | "ERR_OUTGOING_TOO_LARGE"
  | "ERR_OUTGOING_REDIRECT";

export class OutgoingError extends Error {
  constructor(
    readonly code: OutgoingErrorCode,
    /** the host asked for (never a path, query or credential) */
    readonly host: string,
  ) {
    super(`${code} (${host || "no host"})`);
    this.name = "OutgoingError";
  }
}

/** ALLOWED_PRIVATE_HOSTS, parsed: names compared case-insensitively, addresses and CIDR ranges. */
export interface AllowList {
  names: ReadonlySet<string>;
  ranges: BlockList;
  /** the configured text (for messages and docs) */
  source: string;
}

/** Parses "127.0.0.1,localhost,10.0.0.0/8,fd00::/8"; throws on an entry that is none of those. */
export function parseAllowList(value = ""): AllowList {
  const names = new Set<string>();
  const ranges = new BlockList();
  for (const raw of value.split(",")) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, "");
    if (!entry) continue;
    const cidr = /^([^/]+)\/(\d{1,3})$/.exec(entry);
    if (cidr && isIP(cidr[1])) {
      const family = isIP(cidr[1]) === 4 ? "ipv4" : "ipv6";
      const prefix = Number(cidr[2]);
      if (prefix > (family === "ipv4" ? 32 : 128)) throw new Error(`bad CIDR range: ${entry}`);
      ranges.addSubnet(cidr[1], prefix, family);
    } else if (isIP(entry)) ranges.addAddress(entry, isIP(entry) === 4 ? "ipv4" : "ipv6");
    else if (/^[a-z0-9]([a-z0-9-]{0,62})(\.[a-z0-9]([a-z0-9-]{0,62}))*\.?$/.test(entry)) names.add(entry.replace(/\.$/, ""));
    else throw new Error(`not a host name, address or CIDR range: ${entry}`);
  }
  return { names, ranges, source: value };
}

export const NO_PRIVATE_HOSTS: AllowList = parseAllowList("");

const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, with 169.254.169.254 (cloud metadata)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  FORBIDDEN.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b::", 96], // NAT64: reaches IPv4 addresses
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: embeds an IPv4 address
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const)
  FORBIDDEN.addSubnet(net, prefix, "ipv6");

/** The 16 bytes of an IPv6 address (undefined when it is not one). */
function ipv6Bytes(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let a = address.replace(/%.*$/, "");
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (v4) {
    const p = v4[1].split(".").map(Number);
    a = `${a.slice(0, -v4[1].length)}${((p[0] << 8) | p[1]).toString(16)}:${((p[2] << 8) | p[3]).toString(16)}`;
  }
  const [head, tail] = a.includes("::") ? a.split("::") : [a, undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  return groups.flatMap((g) => {
    const n = Number.parseInt(g || "0", 16);
    return [n >> 8, n & 0xff];
  });
}

/** An IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible (::a.b.c.d) IPv6 address as IPv4; others unchanged. */
export function unmapAddress(address: string): string {
  const b = ipv6Bytes(address);
  if (!b) return address;
  const zeros = b.slice(0, 10).every((x) => x === 0);
  const mapped = zeros && b[10] === 0xff && b[11] === 0xff;
  const compatible =
    zeros && b[10] === 0 && b[11] === 0 && b.slice(12).some((x) => x !== 0) && !(b[12] === 0 && b[13] === 0 && b[14] === 0);
  return mapped || compatible ? b.slice(12).join(".") : address;
}

/** Whether an address is one the outside world cannot reach (loopback, private, link-local, metadata, …). */
export function isPrivateAddress(address: string): boolean {
  const a = unmapAddress(address);
  const family = isIP(a);
  if (family === 0) return true; // not an address: never connect to it
  return FORBIDDEN.check(a, family === 4 ? "ipv4" : "ipv6");
}

/** Whether a request for `host` may connect to `address`: public, or named by the allow list (by host or address). */
export function mayConnect(address: string, host: string, allow: AllowList): boolean {
  if (!isPrivateAddress(address)) return true;
  if (allow.names.has(host.toLowerCase().replace(/\.$/, ""))) return true;
  const a = unmapAddress(address);
  const family = isIP(a);
  return family !== 0 && allow.ranges.check(a, family === 4 ? "ipv4" : "ipv6");
}

export interface OutgoingOptions {
  /** ALLOWED_PRIVATE_HOSTS of the configuration (`ctx.config.allowedPrivateHosts`) */
  allow: AllowList;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** the whole exchange, redirects included (default 15 s) */
  timeoutMs?: number;
  /** the largest body read; more throws ERR_OUTGOING_TOO_LARGE (default 10 MiB) */
  maxBytes?: number;
  /** default 3; 0 answers the 3xx itself */
  maxRedirects?: number;
  /** cancels the request (the caller's own deadline or shutdown) */
  signal?: AbortSignal;
}

export interface OutgoingResponse {
  status: number;
  /** lower-case names; repeated headers joined with ", " */
  headers: Record<string, string>;
  body: Buffer;
  /** where the answer came from (after redirects) */
  url: string;
  text(): string;
}

export const OUTGOING_DEFAULTS = { timeoutMs: 15_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 3 } as const;

/** A request through the checks above; throws OutgoingError (never the socket's own error). */
export async function outgoingFetch(url: string, opts: OutgoingOptions): Promise<OutgoingResponse> {
  const timeoutMs = opts.timeoutMs ?? OUTGOING_DEFAULTS.timeoutMs;
  const maxBytes = opts.maxBytes ?? OUTGOING_DEFAULTS.maxBytes;
  const maxRedirects = opts.maxRedirects ?? OUTGOING_DEFAULTS.maxRedirects;
  const deadline = Date.now() + timeoutMs;
  let current = parseUrl(url);
  let method = opts.method ?? "GET";
  let body = opts.body;
  let headers = { ...(opts.headers ?? {}) };
  for (let hop = 0; ; hop++) {
    const res = await once(current, { method, headers, body, allow: opts.allow, deadline, maxBytes, signal: opts.signal });
    const location = res.headers.location;
    if (res.status < 300 || res.status > 399 || res.status === 304 || !location || maxRedirects === 0) return res;
    if (hop >= maxRedirects) throw new OutgoingError("ERR_OUTGOING_REDIRECT", current.hostname);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new OutgoingError("ERR_OUTGOING_REDIRECT", current.hostname);
    }
    if (next.protocol !== "http:" && next.protocol !== "https:") throw new OutgoingError("ERR_OUTGOING_REDIRECT", current.hostname);
    const keepsBody = res.status === 307 || res.status === 308;
    if (next.origin !== current.origin) {
      // credentials and bodies (which may hold a token) stay with the origin they were meant for
      if (keepsBody && body !== undefined) throw new OutgoingError("ERR_OUTGOING_REDIRECT", current.hostname);
      headers = Object.fromEntries(
        Object.entries(headers).filter(([k]) => !["authorization", "cookie", "proxy-authorization"].includes(k.toLowerCase())),
      );
    }
    if (!keepsBody) {
      if (method !== "HEAD") method = "GET";
      body = undefined;
      headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-(type|length)$/i.test(k)));
    }
    current = next;
  }
}

function parseUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new OutgoingError("ERR_OUTGOING_BAD_URL", "");
  }
  if ((u.protocol !== "http:" && u.protocol !== "https:") || !u.hostname || u.username || u.password)
    throw new OutgoingError("ERR_OUTGOING_BAD_URL", u.hostname);
  return u;
}

/** The socket's own error, in our words. */
function classify(err: unknown, host: string): OutgoingError {
  if (err instanceof OutgoingError) return err;
  const code = String((err as { code?: string })?.code ?? "");
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_FAIL" || code === "EAI_NODATA")
    return new OutgoingError("ERR_OUTGOING_DNS", host);
  if (/CERT|SSL|TLS|SELF_SIGNED|ERR_SSL|HOSTNAME_MISMATCH|EPROTO/.test(code)) return new OutgoingError("ERR_OUTGOING_TLS", host);
  if (code === "ETIMEDOUT") return new OutgoingError("ERR_OUTGOING_TIMEOUT", host);
  return new OutgoingError("ERR_OUTGOING_UNREACHABLE", host);
}

function once(
  u: URL,
  o: {
    method: string;
    headers: Record<string, string>;
    body?: string | Buffer;
    allow: AllowList;
    deadline: number;
    maxBytes: number;
    signal?: AbortSignal;
  },
): Promise<OutgoingResponse> {
  const host = u.hostname.replace(/^\[|\]$/g, "");
  // an address in the URL is never looked up: check it here; names are checked by the lookup below
  if (isIP(host) && !mayConnect(host, host, o.allow)) return Promise.reject(new OutgoingError("ERR_OUTGOING_PRIVATE_ADDRESS", host));
  const remaining = o.deadline - Date.now();
  if (remaining <= 0) return Promise.reject(new OutgoingError("ERR_OUTGOING_TIMEOUT", host));
  if (o.signal?.aborted) return Promise.reject(new OutgoingError("ERR_OUTGOING_TIMEOUT", host));

  const lookup = (
    hostname: string,
    options: { family?: number | string; all?: boolean; hints?: number },
    cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : Number(options.family) || 0;
    dnsLookup(hostname, { family, all: true, hints: options.hints }, (err, addresses) => {
      if (err) return cb(err, "");
      const usable = addresses.filter((a) => mayConnect(a.address, hostname, o.allow));
      if (usable.length === 0) return cb(new OutgoingError("ERR_OUTGOING_PRIVATE_ADDRESS", hostname), "");
      if (options.all) cb(null, usable);
      else cb(null, usable[0].address, usable[0].family);
    });
  };

  return new Promise<OutgoingResponse>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
      req.destroy();
      reject(classify(err, host));
    };
    const onAbort = () => fail(new OutgoingError("ERR_OUTGOING_TIMEOUT", host));
    const timer = setTimeout(() => fail(new OutgoingError("ERR_OUTGOING_TIMEOUT", host)), remaining);
    o.signal?.addEventListener("abort", onAbort, { once: true });
    const headers: Record<string, string> = { ...o.headers };
    if (o.body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === "content-length"))
      headers["content-length"] = String(Buffer.byteLength(o.body));
    const req = (u.protocol === "https:" ? https : http).request(u, {
      method: o.method,
      headers,
      agent: false,
      lookup: lookup as never,
    });
    req.on("error", fail);
    req.on("response", (res) => {
      res.on("error", fail);
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > o.maxBytes) return fail(new OutgoingError("ERR_OUTGOING_TOO_LARGE", host));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > o.maxBytes) return fail(new OutgoingError("ERR_OUTGOING_TOO_LARGE", host));
        chunks.push(chunk);
      });
      res.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        o.signal?.removeEventListener("abort", onAbort);
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
        const data = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: out, body: data, url: u.toString(), text: () => data.toString("utf8") });
      });
      res.on("aborted", () => fail(new Error("aborted")));
    });
    req.end(o.body);
  });
}
