import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small Typebot viewer built from its public chat API (../shared/reference/typebot.md §2–5):
 * `POST /api/v1/typebots/{publicId}/startChat` and `POST /api/v1/sessions/{id}/continueChat`,
 * answering `{ sessionId, messages, input, clientSideActions }`. A flow is a list of blocks; a
 * block says its bubbles, may run actions, and may wait for an input. Choice inputs accept only an
 * item's exact content, value or id (as Typebot does); anything else gets Typebot's retry text. A
 * flow whose last block has no input ends, and its session is deleted (continueChat then answers 404).
 */

export interface FakeBlock {
  bubbles?: FakeBubble[];
  actions?: { type: string; lastBubbleBlockId?: string; wait?: { secondsToWaitFor: number }; expectsDedicatedReply?: boolean }[];
  input?: { type: "text input" } | { type: "choice input"; items: { id: string; content: string; value?: string; next?: number }[] };
}

export type FakeBubble =
  | { id?: string; type: "text"; richText: unknown[] }
  | { id?: string; type: "image" | "audio" | "video"; url: string };

export type FakeFlow = FakeBlock[];

/** Rich text helpers (Slate nodes as Typebot sends them). */
export const rt = {
  p: (...children: unknown[]) => ({ type: "p", children: children.map((c) => (typeof c === "string" ? { text: c } : c)) }),
  bold: (text: string) => ({ text, bold: true }),
  italic: (text: string) => ({ text, italic: true }),
  strike: (text: string) => ({ text, strikethrough: true }),
  underline: (text: string) => ({ text, underline: true }),
  link: (url: string, text: string) => ({ type: "a", url, children: [{ text }] }),
  say: (text: string): FakeBubble => ({ type: "text", richText: [rt.p(text)] }),
};

interface Session {
  id: string;
  slug: string;
  block: number;
}

export interface FakeTypebot {
  url: string;
  calls: { path: string; body: Record<string, unknown>; status: number }[];
  /** Answer 503 to everything while true. */
  down: boolean;
  sessions: Map<string, Session>;
  /** Deletes every session (as when they ended or expired on Typebot's side). */
  forgetAll(): void;
  /** While true, chat calls are held unanswered until `release()` (a slow Typebot, without a timer). */
  hold: boolean;
  release(): void;
  /** Chat calls being answered now, and the most there ever were at once. */
  inFlight: number;
  maxInFlight: number;
  /** Served at /files/{name}: what image, audio and video bubbles point at. */
  files: Map<string, { type: string; data: Buffer }>;
  close(): Promise<void>;
}

export async function fakeTypebot(flows: Record<string, FakeFlow>): Promise<FakeTypebot> {
  let seq = 0;
  const sessions = new Map<string, Session>();
  const held: (() => void)[] = [];
  const files = new Map<string, { type: string; data: Buffer }>();
  const state: FakeTypebot = {
    url: "",
    calls: [],
    down: false,
    sessions,
    files,
    forgetAll: () => sessions.clear(),
    hold: false,
    release() {
      state.hold = false;
      for (const go of held.splice(0)) go();
    },
    inFlight: 0,
    maxInFlight: 0,
    close: () => new Promise((r) => server.close(() => r())),
  };

  const bubblesOf = (blockIndex: number, b: FakeBlock) =>
    (b.bubbles ?? []).map((x, i) => {
      const id = x.id ?? `b${blockIndex}-${i}`;
      if (x.type === "text") return { id, type: "text", content: { type: "richText", richText: x.richText } };
      return { id, type: x.type, content: { url: x.url.startsWith("/") ? `${state.url}${x.url}` : x.url } };
    });

  /** Runs blocks from `from` until one waits for an input or the flow ends. */
  function run(s: Session, from: number) {
    const flow = flows[s.slug];
    const messages: unknown[] = [];
    const actions: unknown[] = [];
    for (let i = from; i < flow.length; i++) {
      const b = flow[i];
      messages.push(...bubblesOf(i, b));
      actions.push(...(b.actions ?? []));
      if (b.input) {
        s.block = i;
        const input =
          b.input.type === "choice input"
            ? {
                id: `in${i}`,
                type: "choice input",
                items: b.input.items.map(({ id, content, value }) => ({ id, content, ...(value && { value }) })),
              }
            : { id: `in${i}`, type: b.input.type };
        return { messages, input, ...(actions.length && { clientSideActions: actions }) };
      }
    }
    sessions.delete(s.id);
    return { messages, ...(actions.length && { clientSideActions: actions }) };
  }

  async function read(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString();
    return raw ? JSON.parse(raw) : {};
  }

  const server: Server = createServer(async (req, res) => {
    const path = req.url ?? "";
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && path.startsWith("/files/")) {
      const f = files.get(path.slice(7));
      if (!f) return send(404, { message: "Not found" });
      res.writeHead(200, { "content-type": f.type });
      return res.end(f.data);
    }
    const body = req.method === "POST" ? await read(req) : {};
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    if (state.hold) await new Promise<void>((r) => held.push(r));
    const answer = (status: number, out: unknown) => {
      state.inFlight--;
      state.calls.push({ path, body, status });
      send(status, out);
    };
    if (state.down) return answer(503, { message: "Service Unavailable" });
    let m = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(path);
    if (m && req.method === "POST") {
      const slug = decodeURIComponent(m[1]);
      if (!flows[slug]) return answer(404, { message: "Typebot not found" });
      const s: Session = { id: `sess-${++seq}`, slug, block: 0 };
      sessions.set(s.id, s);
      return answer(200, { sessionId: s.id, resultId: `res-${seq}`, ...run(s, 0) });
    }
    m = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(path);
    if (m && req.method === "POST") {
      const s = sessions.get(decodeURIComponent(m[1]));
      if (!s) return answer(404, { message: "Session not found." });
      const block = flows[s.slug][s.block];
      const message = typeof body.message === "string" ? body.message : undefined;
      if (block.input?.type === "choice input") {
        const reply = (message ?? "").trim();
        const item = block.input.items.find((it) => it.content === reply || it.value === reply || it.id === reply);
        if (!item) {
          return answer(200, {
            messages: [
              { id: "retry", type: "text", content: { type: "richText", richText: [rt.p("Invalid message. Please, try again.")] } },
            ],
            input: (run({ ...s }, s.block) as { input?: unknown }).input,
          });
        }
        return answer(200, run(s, item.next ?? s.block + 1));
      }
      return answer(200, run(s, s.block + 1));
    }
    answer(404, { message: "Not found" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** The first bytes of an Ogg/Opus file: enough for a content check to call it audio/ogg (opus). */
export const OGG_OPUS = Buffer.concat([
  Buffer.from("OggS", "latin1"),
  Buffer.alloc(24),
  Buffer.from("OpusHead", "latin1"),
  Buffer.alloc(64),
]);
