import type { MailTestAnswer, MailTestBody } from "@balcao/contract";
import type { AppContext } from "../../context.js";
import { MAIL_SETTING_KEYS, type MailSettings, mailConfigured, sendMail } from "../../lib/mail.js";
import { getSettingValues } from "./service.js";

const NEEDS_PASSWORD =
  "Digite a senha para testar este servidor: a senha salva só é enviada ao servidor salvo (endereço, porta e segurança). Nada foi enviado.";

/** The server a password would go to: host, port and security, as the transport would use them. */
function serverOf(s: MailSettings): string {
  const secure = s.mail_smtp_secure === "ssl";
  return `${s.mail_host.trim().toLowerCase().replace(/\.$/, "")}|${Number(s.mail_port) || (secure ? 465 : 587)}|${s.mail_smtp_secure}`;
}

/**
 * 'Enviar e-mail de teste' with what the form holds (absent or blank fields: the saved values);
 * answers what the SMTP server said, or what failed and what to check. The saved password goes
 * only to the saved server: testing another one needs it typed.
 */
export async function sendTestMail(ctx: AppContext, to: string, typed: Omit<MailTestBody, "to"> = {}): Promise<MailTestAnswer> {
  const saved = await getSettingValues(ctx.db, [...MAIL_SETTING_KEYS]);
  const s: MailSettings = { ...saved };
  for (const k of ["mail_host", "mail_port", "mail_username", "mail_smtp_secure", "mail_dominio_erp"] as const) {
    const v = typed[k];
    if (v !== undefined && v !== "") s[k] = v;
  }
  if (typed.mail_password) s.mail_password = typed.mail_password;
  else if (s.mail_username && saved.mail_password && serverOf(s) !== serverOf(saved))
    return { ok: false, message: NEEDS_PASSWORD, technical: "ERR_SECRET_NEEDS_RETYPE" };
  if (!mailConfigured(s))
    return { ok: false, message: "Preencha o servidor SMTP (host) para enviar o teste.", technical: "mail_host is empty" };
  try {
    const { response } = await sendMail(s, {
      to: [to],
      subject: "Balcão: e-mail de teste",
      text: "Este é um e-mail de teste das configurações de e-mail do Balcão.",
    });
    return { ok: true, message: response };
  } catch (err) {
    return { ok: false, message: explainMailError(err, s), technical: technicalOf(err) };
  }
}

/** The server's or socket's own words, for the second line. */
function technicalOf(err: unknown): string {
  const e = err as { code?: string; response?: string; message?: string };
  const text = e.response || e.message || String(err);
  return e.code && !text.includes(e.code) ? `${e.code}: ${text}` : text;
}

/** What failed and what to check, in the product's words (nodemailer's error codes, then the socket's). */
export function explainMailError(err: unknown, s: MailSettings): string {
  const e = err as { code?: string; response?: string; responseCode?: number; message?: string };
  const text = `${e.code ?? ""} ${e.message ?? ""} ${e.response ?? ""}`;
  const host = s.mail_host.trim();
  const port = Number(s.mail_port) || (s.mail_smtp_secure === "ssl" ? 465 : 587);
  if (e.code === "EDNS" || /ENOTFOUND|EAI_AGAIN/.test(text))
    return `O servidor SMTP ${host} não foi encontrado (DNS). Confira o endereço do servidor.`;
  if (/ECONNREFUSED/.test(text))
    return `O servidor ${host} recusou a conexão na porta ${port}. Confira a porta (587 para TLS, 465 para SSL, 25 sem segurança) e se o serviço de e-mail está ativo.`;
  if (e.code === "EAUTH" || e.responseCode === 535 || e.responseCode === 534)
    return "O servidor recusou o usuário ou a senha. Confira o usuário (em geral o e-mail completo) e a senha; alguns provedores exigem uma senha de aplicativo.";
  if (e.code === "ETLS" || /ssl|tls|certificate|wrong version|self.signed|EPROTO/i.test(text))
    return `A conexão segura com ${host}:${port} falhou. Confira a segurança escolhida (SSL para a porta 465, TLS para a 587) e o certificado do servidor.`;
  if (/ETIMEDOUT|ETIMEOUT|ECONNECTION|timeout/i.test(text))
    return `O servidor ${host}:${port} não respondeu a tempo. Confira o endereço, a porta e se um firewall bloqueia a saída deste servidor.`;
  if (e.code === "EENVELOPE")
    return "O servidor recusou o destinatário ou o remetente. Confira o endereço de teste e se a conta pode enviar em nome do domínio.";
  if (/ECONNRESET|ESOCKET|EHOSTUNREACH|ENETUNREACH/.test(text))
    return `A conexão com ${host}:${port} caiu ou não foi possível. Confira o endereço, a porta e a segurança escolhida.`;
  return "O servidor SMTP recusou o envio. Veja o detalhe abaixo.";
}
