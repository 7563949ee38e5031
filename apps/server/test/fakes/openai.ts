import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake OpenAI-compatible server (its documented shapes: /v1/chat/completions, /v1/audio/transcriptions,
 * /v1/models; see shared/reference/openai-compatible.md). It records every request it receives and
 * fails on demand: 401, 429 (with Retry-After), 500, a timeout (never answers) or a malformed answer.
 */

export type FakeFailure = "401" | "429" | "quota" | "500" | "timeout" | "malformed";

export interface ReceivedChat {
  path: string;
  authorization: string | undefined;
  model: string;
  messages: { role: string; content: string }[];
  /** every message's content joined: what left Balcão */
  text: string;
}

export interface ReceivedAudio {
  path: string;
  authorization: string | undefined;
  model: string;
  language: string;
  fileName: string;
  fileType: string;
  fileBytes: number;
}

export interface FakeOpenAi {
  /** the base URL to configure (ends in /v1) */
  baseUrl: string;
  key: string;
  chats: ReceivedChat[];
  audios: ReceivedAudio[];
  /** every request's path, in order */
  paths: string[];
  /** fails the next `times` requests (of any endpoint) this way */
  failNext(kind: FakeFailure, times?: number): void;
  /** what the next chat completions answer (the raw content); default: three suggestions echoing the first placeholder */
  chatContent: ((c: ReceivedChat) => string) | null;
  transcript: string;
  models: string[];
  close(): Promise<void>;
}

export const FAKE_AI_KEY = "sk-fake-balcao-123";

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The default chat answer: a summary when asked for one, else three suggestions (the first keeps a placeholder it received). */
function defaultContent(c: ReceivedChat): string {
  if (/resume atendimentos/.test(c.messages[0]?.content ?? "")) {
    const placeholder = c.text.match(/\[(?:CPF|EMAIL|TELEFONE|CNPJ|CARTAO)_\d+\]/)?.[0];
    return `Cliente pediu ajuda com a internet.${placeholder ? ` Documento informado: ${placeholder}.` : ""} Pendente: verificar o sinal.`;
  }
  const placeholder = c.text.match(/\[(?:CPF|EMAIL|TELEFONE|CNPJ|CARTAO)_\d+\]/)?.[0];
  return JSON.stringify({
    suggestions: [
      placeholder ? `Obrigado! Confirmei o cadastro ${placeholder}.` : "Obrigado pelo contato! Vou verificar agora.",
      "Pode reiniciar o roteador, por favor?",
      "Vou abrir um chamado técnico para você.",
    ],
  });
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const failures: FakeFailure[] = [];
  const hanging = new Set<ServerResponse>();
  const fake: FakeOpenAi = {
    baseUrl: "",
    key: FAKE_AI_KEY,
    chats: [],
    audios: [],
    paths: [],
    failNext(kind, times = 1) {
      for (let i = 0; i < times; i++) failures.push(kind);
    },
    chatContent: null,
    transcript: "Meu roteador está piscando vermelho desde ontem.",
    models: ["gpt-4o-mini", "whisper-1"],
    close: async () => {},
  };

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const path = new URL(req.url ?? "/", "http://x").pathname;
    fake.paths.push(path);
    const auth = req.headers.authorization;
    const failure = failures.shift();
    if (failure === "timeout") {
      hanging.add(res);
      return;
    }
    if (failure === "401" || (auth !== `Bearer ${fake.key}` && path.startsWith("/v1/")))
      return json(res, 401, {
        error: { message: "Incorrect API key provided", type: "invalid_request_error", param: null, code: "invalid_api_key" },
      });
    if (failure === "429")
      return json(
        res,
        429,
        { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } },
        { "retry-after": "7" },
      );
    if (failure === "quota")
      return json(res, 429, {
        error: { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota" },
      });
    if (failure === "500") return json(res, 500, { error: { message: "The server had an error", type: "server_error", code: null } });

    if (req.method === "GET" && path === "/v1/models") {
      if (failure === "malformed") return res.writeHead(200, { "content-type": "text/html" }).end("<html>hello</html>");
      return json(res, 200, { object: "list", data: fake.models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })) });
    }
    if (req.method === "POST" && path === "/v1/chat/completions") {
      const body = JSON.parse(raw.toString("utf8")) as { model: string; messages: { role: string; content: string }[] };
      const chat: ReceivedChat = {
        path,
        authorization: auth,
        model: body.model,
        messages: body.messages,
        text: body.messages.map((m) => m.content).join("\n"),
      };
      fake.chats.push(chat);
      if (failure === "malformed") return json(res, 200, { id: "x", object: "chat.completion", choices: [] });
      const content = (fake.chatContent ?? defaultContent)(chat);
      return json(res, 200, {
        id: `chatcmpl-${fake.chats.length}`,
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs: null }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      });
    }
    if (req.method === "POST" && path === "/v1/audio/transcriptions") {
      const form = await new Response(raw, { headers: { "content-type": req.headers["content-type"] ?? "" } }).formData();
      const file = form.get("file");
      fake.audios.push({
        path,
        authorization: auth,
        model: String(form.get("model") ?? ""),
        language: String(form.get("language") ?? ""),
        fileName: file instanceof File ? file.name : "",
        fileType: file instanceof File ? file.type : "",
        fileBytes: file instanceof File ? file.size : 0,
      });
      if (failure === "malformed") return json(res, 200, { nope: true });
      return json(res, 200, { text: fake.transcript, usage: { type: "duration", seconds: 3 } });
    }
    json(res, 404, { error: { message: "Not found", type: "invalid_request_error", code: null } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
