import type { MailTestAnswer } from "@balcao/contract";
import type { AppContext } from "../../context.js";
import { MAIL_SETTING_KEYS, mailConfigured, sendMail } from "../../lib/mail.js";
import { getSettingValues } from "./service.js";

/** 'Enviar e-mail de teste': sends through the saved settings and answers what the SMTP server said. */
export async function sendTestMail(ctx: AppContext, to: string): Promise<MailTestAnswer> {
  const s = await getSettingValues(ctx.db, [...MAIL_SETTING_KEYS]);
  if (!mailConfigured(s)) return { ok: false, message: "mail_host is empty" };
  try {
    const { response } = await sendMail(s, {
      to: [to],
      subject: "Balcão: e-mail de teste",
      text: "Este é um e-mail de teste das configurações de e-mail do Balcão.",
    });
    return { ok: true, message: response };
  } catch (err) {
    const e = err as { response?: string; message?: string };
    return { ok: false, message: e.response || e.message || String(err) };
  }
}
