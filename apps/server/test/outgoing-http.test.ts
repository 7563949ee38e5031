import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import {
  isPrivateAddress,
  mayConnect,
  NO_PRIVATE_HOSTS,
  OutgoingError,
  outgoingFetch,
  parseAllowList,
  unmapAddress,
} from "../src/lib/outgoing-http.js";

/**
 * Issue 33, item 3: the one outgoing HTTP client. Traffic goes to 127.0.0.0/8 only; the other
 * private ranges and the metadata address are proved refused by the address check itself.
 */

interface Listener {
  url: string;
  host: string;
  port: number;
  hits: { path: string; headers: IncomingMessage["headers"]; body: string }[];
  close(): Promise<void>;
}

async function listen(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listener> {
  const hits: Listener["hits"] = [];
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    hits.push({ path: req.url ?? "", headers: req.headers, body });
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    host,
    port,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function refusal(p: Promise<unknown>): Promise<OutgoingError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutgoingError);
  return err as OutgoingError;
}

const LOOPBACK = parseAllowList("127.0.0.1");

describe("the address check (connects nowhere)", () => {
  it.each([
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.1.1",
    "100.64.0.1",
    "100.127.255.254",
    "127.0.0.1",
    "127.8.9.10",
    "0.0.0.0",
    "0.1.2.3",
    "169.254.169.254",
    "169.254.1.1",
    "::1",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::ffff:10.1.2.3",
    "::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "224.0.0.1",
    "255.255.255.255",
  ])("%s is private", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
    expect(mayConnect(address, "example.com", NO_PRIVATE_HOSTS)).toBe(false);
  });

  it.each(["8.8.8.8", "200.160.2.3", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"])(
    "%s is public",
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
      expect(mayConnect(address, "example.com", NO_PRIVATE_HOSTS)).toBe(true);
    },
  );

  it("unmaps IPv4-mapped IPv6 addresses", () => {
    expect(unmapAddress("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(unmapAddress("::ffff:169.254.169.254")).toBe("169.254.169.254");
    expect(unmapAddress("2001:db8::1")).toBe("2001:db8::1");
  });

  it("ALLOWED_PRIVATE_HOSTS opens named hosts, addresses and ranges, and nothing else", () => {
    const allow = parseAllowList(" 10.0.0.0/8, sgp.lan ,192.168.0.5,fd00::/8 ");
    expect(mayConnect("10.20.30.40", "10.20.30.40", allow)).toBe(true);
    expect(mayConnect("::ffff:10.20.30.40", "x", allow)).toBe(true);
    expect(mayConnect("192.168.0.5", "192.168.0.5", allow)).toBe(true);
    expect(mayConnect("192.168.0.6", "192.168.0.6", allow)).toBe(false);
    expect(mayConnect("192.168.7.7", "SGP.lan", allow)).toBe(true);
    expect(mayConnect("192.168.7.7", "other.lan", allow)).toBe(false);
    expect(mayConnect("fd00::5", "x", allow)).toBe(true);
    expect(mayConnect("169.254.169.254", "x", allow)).toBe(false);
    expect(mayConnect("127.0.0.1", "x", allow)).toBe(false);
  });

  it("a configuration with a bad entry does not start", () => {
    expect(() => loadConfig({ DATA_DIR: "/tmp/balcao-cfg-test", ALLOWED_PRIVATE_HOSTS: "10.0.0.0/99" })).toThrow(/ALLOWED_PRIVATE_HOSTS/);
    expect(() => loadConfig({ DATA_DIR: "/tmp/balcao-cfg-test", ALLOWED_PRIVATE_HOSTS: "http://x" })).toThrow(/ALLOWED_PRIVATE_HOSTS/);
    expect(loadConfig({ DATA_DIR: "/tmp/balcao-cfg-test" }).allowedPrivateHosts.names.size).toBe(0);
  });
});

describe("requests to loopback", () => {
  let open: Listener;
  let other: Listener;
  beforeAll(async () => {
    open = await listen("127.0.0.1", (req, res) => {
      if (req.url?.startsWith("/hop/")) {
        const n = Number(req.url.slice(5));
        res.writeHead(302, { location: n > 0 ? `/hop/${n - 1}` : "/ok" }).end();
      } else if (req.url === "/to-other") res.writeHead(302, { location: `${other.url}/stolen` }).end();
      else if (req.url === "/to-other-307") res.writeHead(307, { location: `${other.url}/stolen` }).end();
      else if (req.url === "/to-ipv6-loopback") res.writeHead(302, { location: `http://[::1]:${other.port}/stolen` }).end();
      else if (req.url === "/to-metadata") res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      else if (req.url === "/silent") {
        /* never answers */
      } else res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
    // another loopback address stands for an address the allow list does not name
    other = await listen("127.0.0.2", (_req, res) => res.writeHead(200).end("reached"));
  });
  afterAll(async () => {
    await open.close();
    await other.close();
  });

  it("with ALLOWED_PRIVATE_HOSTS unset, loopback addresses and localhost are refused before connecting", async () => {
    const before = open.hits.length;
    for (const url of [
      `${open.url}/`,
      `http://localhost:${open.port}/`,
      `http://[::ffff:127.0.0.1]:${open.port}/`,
      `http://127.1:${open.port}/`,
    ]) {
      const err = await refusal(outgoingFetch(url, { allow: NO_PRIVATE_HOSTS, method: "POST", body: "token=s3cr3t" }));
      expect(err.code).toBe("ERR_OUTGOING_PRIVATE_ADDRESS");
    }
    expect(open.hits.length).toBe(before);
  });

  it("an open and a closed port of a refused address answer the same", async () => {
    const closed = await listen("127.0.0.1", () => {});
    await closed.close();
    const a = await refusal(outgoingFetch(`${open.url}/`, { allow: NO_PRIVATE_HOSTS }));
    const b = await refusal(outgoingFetch(`http://127.0.0.1:${closed.port}/`, { allow: NO_PRIVATE_HOSTS }));
    expect([a.code, a.message]).toEqual([b.code, b.message]);
  });

  it("a named address is reached; the error of a closed port is ours, not the socket's", async () => {
    const res = await outgoingFetch(`${open.url}/`, { allow: LOOPBACK });
    expect([res.status, res.text()]).toEqual([200, "ok"]);
    const closed = await listen("127.0.0.1", () => {});
    await closed.close();
    const err = await refusal(outgoingFetch(`http://127.0.0.1:${closed.port}/`, { allow: LOOPBACK }));
    expect(err.code).toBe("ERR_OUTGOING_UNREACHABLE");
    expect(err.message).not.toMatch(/ECONNREFUSED|connect /);
  });

  it("a name is checked on the address it resolves to: localhost needs its own entry or its address", async () => {
    // 127.0.0.1 named: localhost resolving there is let through by the address
    expect((await outgoingFetch(`http://localhost:${open.port}/`, { allow: LOOPBACK })).status).toBe(200);
    const onlyOther = parseAllowList("127.0.0.2");
    const err = await refusal(outgoingFetch(`http://localhost:${open.port}/`, { allow: onlyOther }));
    expect(err.code).toBe("ERR_OUTGOING_PRIVATE_ADDRESS");
  });

  it("follows redirects to allowed addresses, at most 3", async () => {
    const res = await outgoingFetch(`${open.url}/hop/2`, { allow: LOOPBACK });
    expect([res.status, res.text(), new URL(res.url).pathname]).toEqual([200, "ok", "/ok"]);
    const err = await refusal(outgoingFetch(`${open.url}/hop/3`, { allow: LOOPBACK }));
    expect(err.code).toBe("ERR_OUTGOING_REDIRECT");
  });

  it("never follows a redirect to an address the allow list does not name (nor the metadata address)", async () => {
    const before = other.hits.length;
    for (const path of ["/to-other", "/to-ipv6-loopback", "/to-metadata"]) {
      const err = await refusal(outgoingFetch(`${open.url}${path}`, { allow: LOOPBACK, headers: { authorization: "Bearer s3cr3t" } }));
      expect(err.code).toBe("ERR_OUTGOING_PRIVATE_ADDRESS");
    }
    expect(other.hits.length).toBe(before);
  });

  it("a redirect to another origin drops the Authorization header and never re-sends a body", async () => {
    const both = parseAllowList("127.0.0.1,127.0.0.2");
    const res = await outgoingFetch(`${open.url}/to-other`, { allow: both, headers: { authorization: "Bearer s3cr3t" } });
    expect(res.text()).toBe("reached");
    expect(other.hits.at(-1)?.headers.authorization).toBeUndefined();
    const before = other.hits.length;
    const err = await refusal(outgoingFetch(`${open.url}/to-other-307`, { allow: both, method: "POST", body: "token=s3cr3t" }));
    expect(err.code).toBe("ERR_OUTGOING_REDIRECT");
    expect(other.hits.length).toBe(before);
  });

  it("gives up at the timeout", async () => {
    const err = await refusal(outgoingFetch(`${open.url}/silent`, { allow: LOOPBACK, timeoutMs: 200 }));
    expect(err.code).toBe("ERR_OUTGOING_TIMEOUT");
  });

  it("refuses URLs that are not http(s) or carry credentials", async () => {
    for (const url of ["file:///etc/passwd", "ftp://example.com/", "http://user:pw@127.0.0.1/", "not a url"])
      expect((await refusal(outgoingFetch(url, { allow: LOOPBACK }))).code).toBe("ERR_OUTGOING_BAD_URL");
  });
});

describe("the size limit", () => {
  const TOTAL = 50 * 1024 * 1024;
  const CHUNK = Buffer.alloc(64 * 1024, 0x61);
  let server: Listener;
  let written = 0;
  let finished = false;
  beforeAll(async () => {
    server = await listen("127.0.0.1", (req, res) => {
      // no content-length: the limit must be found while reading
      res.writeHead(200, { "content-type": "application/octet-stream" });
      written = 0;
      finished = false;
      const pump = () => {
        while (written < TOTAL) {
          written += CHUNK.length;
          if (!res.write(CHUNK)) return void res.once("drain", pump);
        }
        finished = true;
        res.end();
      };
      if (req.url === "/declared") res.setHeader("x-note", "declared");
      pump();
    });
  });
  afterAll(() => server.close());

  it("cuts a 50 MB answer at the limit without reading it all", async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const err = await refusal(outgoingFetch(`${server.url}/big`, { allow: LOOPBACK, maxBytes: 1024 * 1024 }));
    expect(err.code).toBe("ERR_OUTGOING_TOO_LARGE");
    // the server could only push what the socket buffers held before the client hung up
    expect(finished).toBe(false);
    expect(written).toBeLessThan(TOTAL / 2);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(25 * 1024 * 1024);
  });

  it("refuses at once an answer that declares a length above the limit", async () => {
    const big = await listen("127.0.0.1", (_req, res) => {
      res.writeHead(200, { "content-length": String(TOTAL) });
      res.write(CHUNK);
    });
    try {
      const err = await refusal(outgoingFetch(`${big.url}/`, { allow: LOOPBACK, maxBytes: 1024 * 1024 }));
      expect(err.code).toBe("ERR_OUTGOING_TOO_LARGE");
    } finally {
      await big.close();
    }
  });
});
