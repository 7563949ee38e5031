/**
 * Sending e-mail through the provider's SMTP server (settings mail_*): the one place that builds
 * the transport and picks the sender, for the settings' test e-mail and the contracts alike.
 */

export interface MailSettings {
  mail_host: string;
  mail_port: string;
  mail_username: string;
  mail_password: string;
  /** none, ssl (TLS from the first byte) or tls (STARTTLS) */
  mail_smtp_secure: string;
  /** the ERP domain or address: the sender's domain when the account is not an address */
  mail_dominio_erp?: string;
}

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: Buffer; contentType?: string }[];
}

export const MAIL_SETTING_KEYS = [
  "mail_host",
  "mail_port",
  "mail_username",
  "mail_password",
  "mail_smtp_secure",
  "mail_dominio_erp",
] as const;

/** Whether the settings name an SMTP server to send through. */
export function mailConfigured(s: MailSettings): boolean {
  return s.mail_host.trim() !== "";
}

/** The sender: the account when it is an address, else no-reply at the ERP domain (or the host). */
export function senderOf(s: MailSettings): string {
  if (s.mail_username.includes("@")) return s.mail_username;
  const erp = (s.mail_dominio_erp ?? "").trim();
  const domain = erp.includes("@") ? erp.split("@")[1] : erp;
  return `no-reply@${(domain || s.mail_host.trim()).replace(/^https?:\/\//, "").replace(/[/:].*$/, "")}`;
}

/** Sends one message; answers the server's message id and its reply. Throws when the server refuses it. */
export async function sendMail(s: MailSettings, msg: MailMessage): Promise<{ messageId: string; response: string }> {
  const secure = s.mail_smtp_secure === "ssl";
  // loaded at the first e-mail: a server that never mails never holds nodemailer
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: s.mail_host.trim(),
    port: Number(s.mail_port) || (secure ? 465 : 587),
    secure,
    requireTLS: s.mail_smtp_secure === "tls",
    ignoreTLS: s.mail_smtp_secure === "none",
    ...(s.mail_username && { auth: { user: s.mail_username, pass: s.mail_password } }),
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    socketTimeout: 60_000,
  });
  try {
    const info = await transport.sendMail({
      from: senderOf(s),
      to: msg.to,
      subject: msg.subject,
      text: msg.text,
      html: msg.html,
      attachments: msg.attachments,
    });
    return { messageId: String(info.messageId ?? ""), response: String(info.response ?? "") };
  } finally {
    transport.close();
  }
}

/** The address part of mail_dominio_erp ("erp@provedor.com.br", or a domain → no address). */
export function erpAddress(value: string): string | undefined {
  const v = value.trim();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? v : undefined;
}
