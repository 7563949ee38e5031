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
  // integration
  integrationSystem: "SGP",
  integrationUrl: "",
  integrationApp: "",
  integrationToken: "",
  mkAuthNotes: "",
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
  /** the one-line confirmation the customer gets */
  disparoOptOutReply: "Pronto! Você não vai mais receber nossas mensagens automáticas. Se mudar de ideia, é só nos chamar.",
} as const;

export type SettingKey = keyof typeof SETTING_DEFAULTS;
export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

/** Never sent back to the browser; GET /settings answers `has_<key>` = "true" | "false" instead. */
export const SECRET_SETTING_KEYS: readonly SettingKey[] = ["mail_password", "integrationToken", "settingsPassword"];
/** Set by the server only. */
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
  mail_smtp_secure: ["none", "ssl", "tls"],
};

/** Settings holding a non-negative integer. */
export const SETTING_INTEGERS: readonly SettingKey[] = ["timeCreateNewTicket", "mail_port", "autoCloseHours"];

export const COLOR_SETTING_KEYS: readonly SettingKey[] = [
  "topbarColor",
  "secondaryColor",
  "loginPagePrimaryColor",
  "loginPageSecondaryColor",
];
