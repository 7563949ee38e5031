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
export const URL_SETTING_KEYS: readonly SettingKey[] = ["urlPix", "urlContrato", "urlApi", "integrationUrl", "financeBaseUrl", "aiBaseUrl"];
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
