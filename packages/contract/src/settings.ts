import { z } from "zod";
import { isValidCnpj, normalizeDocument } from "./documents.js";

/** Every setting key of both documents with the default an empty database starts with. */
export const SETTING_DEFAULTS = {
  // core
  userCreation: "disabled",
  enableContract: "disabled",
  topbarColor: "#001f3f",
  secondaryColor: "#6b74d7",
  timeCreateNewTicket: "7200",
  call: "disabled",
  CheckMsgIsGroup: "enabled",
  autoCloseHours: "24",
  // PIX and contract
  pix: "disabled",
  urlPix: "",
  urlContrato: "",
  urlApi: "",
  /**
   * the address customers and Meta reach this server at (https://atendimento.provedor.com.br): signing
   * links, the Cloud API webhook URL, the API page's examples. Empty: the PUBLIC_URL environment
   * variable, else the address the request came to. See `publicUrlWarning`.
   */
  publicUrl: "",
  userApiToken: "",
  msgEnvioContrato: "",
  msgConfirmacaoAssinatura: "",
  // witnesses
  contrato_nome1: "",
  contrato_cpf1: "",
  contrato_nome2: "",
  contrato_cpf2: "",
  // the provider's identity on its contracts: the PDF's header and CONTRATADA, {empresa}, {cnpj_empresa}, {endereco_empresa}
  /** razão social */
  empresa_nome: "",
  /** 14 characters, no mask (checked by its check digits; the contracts print 00.000.000/0000-00) */
  empresa_cnpj: "",
  empresa_endereco: "",
  // integration
  integrationSystem: "SGP",
  integrationUrl: "",
  integrationApp: "",
  integrationToken: "",
  mkAuthNotes: "",
  /** base address of the embedded finance pages (/Pix, /Ajustes, …): the frames open it, the CSP allows exactly its origin */
  financeBaseUrl: "",
  /** MK-AUTH does not say how long an unlock lasts: the days the provider grants (told to the customer) */
  mkAuthUnlockDays: "3",
  /** MK-AUTH has no unlock policy of its own: a contract unlocks itself in the bot at most once in this many days (0 = no limit) */
  mkAuthUnlockEveryDays: "30",
  // static PIX (used when the billing system gives no PIX code): key, its type, who receives
  pixKey: "",
  pixKeyType: "cnpj",
  pixMerchantName: "",
  pixMerchantCity: "",
  // self-service on WhatsApp (billing bot); {name}, {days}, {message}, {due}, {amount} are filled in
  selfServiceAskDocument: "Para consultar seus dados, envie o CPF ou CNPJ do titular (só os números).",
  selfServiceInvalidDocument: "Esse CPF/CNPJ não parece válido. Confira os números e envie de novo.",
  selfServiceNotFound: "Não encontramos um cadastro com esse documento para este número de WhatsApp. Vou chamar um atendente.",
  selfServiceChooseContract: "Encontramos mais de um contrato. Responda com o número do contrato desejado:",
  selfServiceMenu:
    "Olá, {name}! Escolha uma opção:\n1 - 2ª via da fatura\n2 - Desbloqueio de confiança\n3 - Status da conexão\n4 - Falar com atendente",
  selfServiceInvalidOption: "Opção inválida. Responda só com o número de uma das opções.",
  selfServiceNoInvoices: "Você não tem faturas em aberto. Obrigado!",
  selfServiceInvoice: "Fatura com vencimento em {due}, valor R$ {amount}.",
  selfServiceUnlockDone: "Pronto! Sua conexão foi liberada por {days} dia(s). A reconexão pode levar alguns minutos.",
  selfServiceUnlockRefused: "Não foi possível liberar: {message}",
  selfServiceConnection: "Status da sua conexão: {message}",
  selfServiceHandover: "Certo! Vou transferir você para um atendente. Aguarde um momento.",
  selfServiceUnavailable: "Nosso sistema de cobrança está fora do ar agora. Vou chamar um atendente para ajudar.",
  selfServiceRestricted:
    "Por segurança, como este número não está no cadastro, posso enviar só a 2ª via. Para outras opções, fale com um atendente.",
  // e-mail
  mail_host: "",
  mail_username: "",
  mail_password: "",
  mail_smtp_secure: "tls",
  mail_port: "587",
  mail_dominio_erp: "",
  mail_logo: "",
  mail_fundo_contrato: "",
  mail_marca_agua: "",
  // colours
  loginPagePrimaryColor: "#003065",
  loginPageSecondaryColor: "#f0f0f0",
  // logos
  logoLogin: "",
  logoDashboard: "",
  logoMensagem: "",
  favicon: "",
  // theme
  darkMode: "disabled",
  // settings screen password ('Acesso restrito'); stored hashed, verified by the server
  settingsPassword: "",
  // the product's time zone: what "today" and a schedule's "2026-11-23T09:30" mean (IANA name)
  timezone: "America/Sao_Paulo",
  // automatic texts the customer reads (a provider words them in Configurações → Textos automáticos)
  /** sent before the queue menu again when the customer's answer is not one of its numbers */
  msgInvalidOption: "Opção inválida. Responda só com o número de um dos setores abaixo.",
  // what the inbox shows for messages it could not store as sent (agents read these)
  msgMediaUnavailable: "[mídia indisponível]",
  msgVoiceCall: "Chamada de voz",
  msgVideoCall: "Chamada de vídeo",
  // disparos: a customer who answers one of these words (comma-separated; case and accents ignored) stops receiving them
  disparoOptOutWords: "SAIR",
  // schedules: one found due after downtime is still sent up to this many minutes late, else marked failed ('atrasado')
  scheduleGraceMinutes: "60",
  /** the one-line confirmation a customer who leaves the disparos gets */
  // AI assist (any OpenAI-compatible server): off until an admin turns it on
  aiEnabled: "disabled",
  aiBaseUrl: "https://api.openai.com/v1",
  /** write-only (hasAiApiKey); sent only to aiBaseUrl */
  aiApiKey: "",
  aiModel: "gpt-4o-mini",
  /** empty: voice notes are not transcribed */
  aiTranscriptionModel: "",
  /** CPF/CNPJ, e-mails, card-like and phone numbers replaced by placeholders before anything leaves */
  aiRedact: "enabled",
  /** the audit log keeps entries this many days (a daily job deletes older ones; 0 = forever) */
  auditRetentionDays: "365",
  /** media files (customers' and agents') older than this many days are deleted by a daily job (0 = kept) */
  mediaRetentionDays: "0",
  disparoOptOutReply: "Pronto! Você não vai mais receber nossas mensagens automáticas. Se mudar de ideia, é só nos chamar.",
} as const;

export type SettingKey = keyof typeof SETTING_DEFAULTS;

/** What the billing self-service bot says on WhatsApp (Configurações → Autoatendimento no WhatsApp). */
export const SELF_SERVICE_TEXT_KEYS = [
  "selfServiceAskDocument",
  "selfServiceInvalidDocument",
  "selfServiceNotFound",
  "selfServiceChooseContract",
  "selfServiceMenu",
  "selfServiceInvalidOption",
  "selfServiceNoInvoices",
  "selfServiceInvoice",
  "selfServiceUnlockDone",
  "selfServiceUnlockRefused",
  "selfServiceConnection",
  "selfServiceHandover",
  "selfServiceUnavailable",
  "selfServiceRestricted",
] as const satisfies readonly SettingKey[];
export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

/** Never sent back to the browser; GET /settings answers `has_<key>` = "true" | "false" instead. */
export const SECRET_SETTING_KEYS: readonly SettingKey[] = [
  "mail_password",
  "integrationToken",
  "settingsPassword",
  "userApiToken",
  "aiApiKey",
];
/**
 * A saved secret goes only to its saved address. Changing any address key of a group whose secret
 * is saved needs the secret typed again, in the same call (PUT /settings/:key `{ value, secret }`;
 * else 400 ERR_VALIDATION naming `secret`); clearing the address drops the secret.
 */
export const SECRET_ADDRESS_GROUPS: readonly { secret: SettingKey; address: readonly SettingKey[]; retype: string }[] = [
  {
    secret: "aiApiKey",
    address: ["aiBaseUrl"],
    retype: "Digite a chave de API para o novo endereço: a chave salva só é enviada ao endereço salvo.",
  },
  {
    secret: "integrationToken",
    address: ["integrationUrl"],
    retype: "Digite o token/Client_Secret para a nova URL: o token salvo só é enviado para a URL salva.",
  },
  {
    secret: "mail_password",
    address: ["mail_host", "mail_port", "mail_smtp_secure"],
    retype: "Digite a senha do e-mail para o novo servidor: a senha salva só é enviada ao servidor salvo.",
  },
];
/** Set by the server only ('Gerar novo': POST /settings/userApiToken shows a new one once, keeps its hash). */
export const READ_ONLY_SETTING_KEYS: readonly SettingKey[] = ["userApiToken"];

/** Allowed values for settings with a closed choice. */
export const SETTING_CHOICES: Partial<Record<SettingKey, readonly string[]>> = {
  userCreation: ["enabled", "disabled"],
  enableContract: ["enabled", "disabled"],
  call: ["enabled", "disabled"],
  CheckMsgIsGroup: ["enabled", "disabled"],
  pix: ["enabled", "disabled"],
  darkMode: ["enabled", "disabled"],
  integrationSystem: ["SGP", "MK-AUTH"],
  pixKeyType: ["cpf", "cnpj", "phone", "email", "evp"],
  mail_smtp_secure: ["none", "ssl", "tls"],
  aiEnabled: ["enabled", "disabled"],
  aiRedact: ["enabled", "disabled"],
};

/** The audit log's retention: 0 (forever) or at least this many days (an admin may not erase yesterday's trail). */
export const AUDIT_RETENTION_MIN_DAYS = 90;
/** Settings holding a non-negative integer. */
export const SETTING_INTEGERS: readonly SettingKey[] = [
  "timeCreateNewTicket",
  "mail_port",
  "autoCloseHours",
  "scheduleGraceMinutes",
  "mkAuthUnlockDays",
  "mkAuthUnlockEveryDays",
  "auditRetentionDays",
  "mediaRetentionDays",
];

export const COLOR_SETTING_KEYS: readonly SettingKey[] = [
  "topbarColor",
  "secondaryColor",
  "loginPagePrimaryColor",
  "loginPageSecondaryColor",
];

/** Settings whose value is an http(s) address (empty allowed). */
export const URL_SETTING_KEYS: readonly SettingKey[] = [
  "urlPix",
  "urlContrato",
  "urlApi",
  "publicUrl",
  "integrationUrl",
  "financeBaseUrl",
  "aiBaseUrl",
];

// ---------- the public address (setting publicUrl, environment PUBLIC_URL) ----------

/** Why a public address is refused: "Must be …" (the server's 400 ERR_VALIDATION on `value`). */
export const PUBLIC_URL_INVALID = "Must be an address like https://atendimento.example.com (no query, no user or password)";

/**
 * A public address as kept: http(s), a host, no user, query or fragment; a path is allowed (a proxy
 * serving the product under /balcao); without its trailing slashes. Undefined when it is none of that.
 */
export function normalizePublicUrl(value: string): string | undefined {
  const m = PUBLIC_URL_SHAPE.exec(value.trim());
  if (!m) return undefined;
  const port = m[4] ? Number(m[4].slice(1)) : undefined;
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  return `${m[1].toLowerCase()}://${m[2].toLowerCase()}${m[4] ?? ""}${(m[5] ?? "").replace(/\/+$/, "")}`;
}

/** scheme, host (a name, an IPv4 or a bracketed IPv6) with its port, a path: nothing else (no user, query or fragment) */
const PUBLIC_URL_SHAPE =
  /^(https?):\/\/((\[[0-9a-f:.]+\])|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(:\d{1,5})?(\/[^\s?#]*)?$/i;

/** What is wrong with a public address for customers and Meta: not HTTPS, or a local/internal host. */
export type PublicUrlWarning = "not_https" | "private";

function isPrivateIpv4(host: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

/**
 * The public address's problems, worst first: a local or internal host (localhost, 127.0.0.1,
 * 10.x, 172.16–31.x, 192.168.x, 100.64.x, fc00::/7, a name without a dot, .local/.lan/.internal)
 * that neither Meta nor a customer's phone reaches; then plain http, which Meta's webhook refuses
 * and a signing page should not use. Empty: nothing to warn about.
 */
export function publicUrlWarnings(url: string): PublicUrlWarning[] {
  const m = PUBLIC_URL_SHAPE.exec(url.trim());
  if (!m) return [];
  const host = m[2].toLowerCase().replace(/^\[|\]$/g, "");
  const out: PublicUrlWarning[] = [];
  const v6 = host.includes(":");
  const local =
    host === "localhost" ||
    /\.(localhost|local|lan|internal|home|intranet)$/.test(host) ||
    isPrivateIpv4(host) ||
    (v6 && (host === "::1" || host === "::" || /^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host))) ||
    (!v6 && !host.includes("."));
  if (local) out.push("private");
  if (m[1].toLowerCase() !== "https") out.push("not_https");
  return out;
}

/** The warnings in the product's words (the server's answers; the screens translate the codes). */
export const PUBLIC_URL_WARNING_TEXTS: Record<PublicUrlWarning, string> = {
  private:
    "O endereço público é local ou da rede interna: a Meta (WhatsApp Cloud API) e os clientes que recebem os links de assinatura não conseguem acessá-lo pela internet.",
  not_https: "O endereço público não usa HTTPS: o WhatsApp Cloud API e os links de assinatura precisam de HTTPS.",
};

/** GET /settings/public-url: the address links use now, where it comes from, and what to fix. */
export const publicUrlAnswer = z.object({
  /** the address links are built on ("" when it comes from the request and none was given) */
  url: z.string(),
  /** "setting" (Configurações), "env" (PUBLIC_URL) or "request" (neither set: the address this request came to) */
  source: z.enum(["setting", "env", "request"]),
  /** the Cloud API webhook URL to paste into Meta's panel */
  webhookUrl: z.string(),
  /** codes of `publicUrlWarnings` */
  warnings: z.array(z.enum(["not_https", "private"])),
  /** the same in Portuguese, one line (null when nothing to warn about) */
  warning: z.string().nullable(),
});
export type PublicUrlAnswer = z.infer<typeof publicUrlAnswer>;
/** Witness CPFs: digits only, 11 with valid check digits (empty allowed). */
export const CPF_SETTING_KEYS: readonly SettingKey[] = ["contrato_cpf1", "contrato_cpf2"];
/** The provider's CNPJ (the contracts' CONTRATADA): 14 characters with valid check digits (empty allowed). */
export const CNPJ_SETTING_KEYS: readonly SettingKey[] = ["empresa_cnpj"];
export const CNPJ_INVALID = "CNPJ inválido";
/**
 * A CNPJ setting as typed, the server's check and the settings screen's: empty, or a CNPJ with
 * its mask or without ("12.345.678/0001-95", the new alphanumeric ones too) whose check digits
 * are right; the value kept is its 14 characters without the mask.
 */
export const cnpjSettingValue = z
  .string()
  .trim()
  .max(30, CNPJ_INVALID)
  .regex(/^[0-9A-Za-z./\-\s]*$/, CNPJ_INVALID)
  .transform(normalizeDocument)
  .refine((v) => v === "" || isValidCnpj(v), CNPJ_INVALID);
/** The provider's name and address as its contracts print them: at most this many characters. */
export const COMPANY_TEXT_MAX: Partial<Record<SettingKey, number>> = { empresa_nome: 200, empresa_endereco: 300 };
/** Settings anyone admin may change without the settings token: the top bar's dark-mode switch. */
/**
 * What GET /settings (and the `settings` socket event) gives non-admins: the keys an agent's or a
 * supervisor's screens read (colours, logos, dark mode, time zone, the chat's PIX/contract/finance
 * buttons, the spec's core keys). Everything else (mail server, integration URL and app, texts
 * of the bots) is for admins only. A new key an agent's screen reads must be added here.
 */
export const AGENT_SETTING_KEYS: readonly SettingKey[] = [
  "userCreation",
  "enableContract",
  "topbarColor",
  "secondaryColor",
  "loginPagePrimaryColor",
  "loginPageSecondaryColor",
  "darkMode",
  "logoLogin",
  "logoDashboard",
  "logoMensagem",
  "favicon",
  "timezone",
  "timeCreateNewTicket",
  "call",
  "CheckMsgIsGroup",
  "financeBaseUrl",
  "pix",
  "urlPix",
  // the 'Novo Contrato' preview fills the witnesses as the PDF will (they are printed on every contract)
  "contrato_nome1",
  "contrato_cpf1",
  "contrato_nome2",
  "contrato_cpf2",
  // and the provider's identity (the contract's header, CONTRATADA and {empresa}: printed on every contract, not secret)
  "empresa_nome",
  "empresa_cnpj",
  "empresa_endereco",
  // the chat shows "Sugerir resposta" and "Resumo" only while AI assist is on
  "aiEnabled",
];
export const UNGATED_SETTING_KEYS: readonly SettingKey[] = ["darkMode"];
