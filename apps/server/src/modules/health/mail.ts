import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.js";
import { MAIL_SETTING_KEYS, mailConfigured, sendMail } from "../../lib/mail.js";
import { getSettingValues } from "../settings/service.js";
import { adminEmails } from "./service.js";

/** Why a number was paused, as the admins' e-mail says it. */
export function pauseReasonText(reason: string): string {
  switch (reason) {
    case "loggedOut":
      return "o WhatsApp encerrou a sessão do aparelho (desconectado no celular ou pelo WhatsApp)";
    case "forbidden":
      return "o WhatsApp recusou o número (403: bloqueado)";
    case "falhas":
      return "muitas mensagens falharam em pouco tempo";
    case "bloqueios":
      return "muitos clientes recusaram as mensagens do número nas últimas 24 horas";
    default:
      return `sinal de bloqueio do WhatsApp (${reason})`;
  }
}

/**
 * The alert job: the admins get an e-mail saying which number was paused and why, through the
 * provider's SMTP server (settings mail_*). No server or no admin address: logged, nothing sent.
 */
export async function sendAlertMail(ctx: AppContext, p: { whatsappId: number; reason: string }): Promise<void> {
  const s = await getSettingValues(ctx.db, MAIL_SETTING_KEYS);
  const to = await adminEmails(ctx.db);
  if (!mailConfigured(s) || !to.length) {
    ctx.log.info({ whatsappId: p.whatsappId }, "number health alert not e-mailed: no SMTP server or no admin address");
    return;
  }
  const { rows } = await ctx.db.execute<{ name: string }>(sql`select name from whatsapps where id = ${p.whatsappId}`);
  const name = rows[0]?.name ?? `#${p.whatsappId}`;
  await sendMail(s, {
    to,
    subject: `Balcão: envios automáticos da conexão ${name} pausados`,
    text: [
      `Os envios automáticos (disparos, agendamentos e API) da conexão ${name} foram pausados: ${pauseReasonText(p.reason)}.`,
      "As respostas aos clientes em conversa continuam saindo. Quando a conexão tem uma conexão reserva conectada, os envios automáticos passam por ela.",
      "Confira o número na tela Conexões e use 'Retomar envios' no painel de saúde quando estiver tudo certo.",
    ].join("\n\n"),
  });
}
