import type { ApiMessageSendAnswer } from "@balcao/contract";
import { ApiError } from "../../api/http";

export const SEND_PATH = "/api/messages/send";
/** §9: the test forms submit 400 ms after the click. */
export const SUBMIT_DELAY_MS = 400;

/**
 * The test forms' call, as an outside system makes it: the connection's token as a Bearer header
 * and nothing of the signed-in session (a wrong token must not sign the user out).
 */
export async function sendTest(token: string, body: { number: string; body: string } | FormData): Promise<ApiMessageSendAnswer> {
  const form = body instanceof FormData;
  const res = await fetch(SEND_PATH, {
    method: "POST",
    headers: {
      accept: "application/json",
      authorization: `Bearer ${token.trim()}`,
      ...(form ? {} : { "content-type": "application/json" }),
    },
    body: form ? body : JSON.stringify(body),
    credentials: "omit",
  });
  const text = await res.text();
  let json: { error?: string; fields?: Record<string, string[]> } & Partial<ApiMessageSendAnswer> = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const err = new ApiError(res.status, json.error ?? (text.trim() || undefined), json.fields);
    (err as ApiError & { retryAfter?: string }).retryAfter = res.headers.get("retry-after") ?? undefined;
    throw err;
  }
  return json as ApiMessageSendAnswer;
}

/** The examples shown for the page's own address. */
export function examples(origin: string) {
  const url = `${origin}${SEND_PATH}`;
  return {
    url,
    textCurl: `curl -X POST '${url}' \\
  -H 'X_TOKEN: SEU_TOKEN' \\
  -H 'Content-Type: application/json' \\
  -d '{"number": "5585999998888", "body": "Olá! Sua fatura já está disponível."}'`,
    textJs: `const res = await fetch("${url}", {
  method: "POST",
  headers: { Authorization: "Bearer SEU_TOKEN", "Content-Type": "application/json" },
  body: JSON.stringify({ number: "5585999998888", body: "Olá! Sua fatura já está disponível." }),
});
console.log(await res.json()); // { message, id, ids, ticketId }`,
    mediaCurl: `curl -X POST '${url}' \\
  -H 'X_TOKEN: SEU_TOKEN' \\
  -F 'number=5585999998888' \\
  -F 'body=boleto.pdf' \\
  -F 'medias=@boleto.pdf'`,
    mediaJs: `const form = new FormData();
form.append("number", "5585999998888");
form.append("body", file.name);
form.append("medias", file); // a File or Blob; repeat for more files
const res = await fetch("${url}", {
  method: "POST",
  headers: { Authorization: "Bearer SEU_TOKEN" },
  body: form,
});`,
  };
}
