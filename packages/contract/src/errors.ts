/** The error catalogue (spec core §8, document 001) and the HTTP status each code answers with. */
export const ERROR_STATUS = {
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 409,
  /** several server processes: the connection's session is being handed to another process (try again in a few seconds) */
  ERR_SESSION_NOT_OWNED: 503,
  ERR_WAPP_CHECK_CONTACT: 502,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 502,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_SENDING_WAPP_MSG: 502,
  ERR_DELETE_WAPP_MSG: 502,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 401,
  ERR_INVALID_TOKEN: 403,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_NO_QUICK_ANSWER_FOUND: 404,
  ERR_NO_MESSAGE_FOUND: 404,
  ERR_NO_TAG_FOUND: 404,
  ERR_NO_CHATBOT_FOUND: 404,
  ERR_NO_AUDIOBOT_FOUND: 404,
  ERR_NOT_FOUND: 404,
  ERR_NO_INCIDENT_FOUND: 404,
  /** closing or changing an incident that is already closed */
  ERR_INCIDENT_CLOSED: 409,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 404,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_QUEUE_NAME_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  ERR_WAPP_NAME_ALREADY_EXISTS: 409,
  ERR_USER_EMAIL_ALREADY_EXISTS: 409,
  ERR_QUICK_ANSWER_ALREADY_EXISTS: 409,
  ERR_TAG_ALREADY_EXISTS: 409,
  ERR_VALIDATION: 400,
  ERR_INVALID_JSON: 400,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  ERR_INVALID_FILE: 400,
  ERR_TOO_MANY_REQUESTS: 429,
  ERR_TICKET_NOT_OPEN: 409,
  /** a request with the same Idempotency-Key is still being handled */
  ERR_IDEMPOTENCY_CONFLICT: 409,
  /** 'Reenviar' on a message that did not fail */
  ERR_MESSAGE_NOT_FAILED: 409,
  ERR_CANNOT_DELETE_SELF: 400,
  ERR_LAST_ADMIN: 400,
  /** changing one's own password: the current password given is wrong */
  ERR_WRONG_PASSWORD: 400,
  /** a settings change while a settings password is set, without a valid X-Settings-Token */
  ERR_SETTINGS_LOCKED: 403,
  /** the settings password ('Acesso restrito') is wrong: 'Senha incorreta!' */
  ERR_WRONG_SETTINGS_PASSWORD: 403,
  /** POST /settings/unlock before a settings password was created */
  ERR_SETTINGS_PASSWORD_NOT_SET: 409,
  /** contracts are disabled (setting enableContract) */
  ERR_CONTRACTS_DISABLED: 403,
  ERR_NO_CONTRACT_FOUND: 404,
  ERR_NO_TEMPLATE_FOUND: 404,
  /** a signing link that is unknown, expired or already used */
  ERR_SIGNING_LINK_INVALID: 410,
  /** the CPF digits typed on the signing page do not match */
  ERR_SIGNING_CPF_MISMATCH: 400,
  /** too many wrong CPF tries: the link is locked */
  ERR_SIGNING_LOCKED: 423,
  /** the document shown is not the one stored (hash differs) */
  ERR_SIGNING_DOCUMENT_CHANGED: 409,
  /** the full name typed does not match the contract's */
  ERR_SIGNING_NAME_MISMATCH: 400,
  ERR_INTERNAL: 500,
  /** billing integration (SGP / MK-AUTH): no URL or credentials in the settings */
  ERR_BILLING_NOT_CONFIGURED: 409,
  /** the billing system did not answer (timeout, network, circuit open) or answered garbage */
  ERR_BILLING_UNAVAILABLE: 503,
  /** the billing system refused the credentials */
  ERR_BILLING_AUTH: 502,
  /** no contract in the billing system for that CPF/CNPJ (or that contact) */
  ERR_BILLING_CUSTOMER_NOT_FOUND: 404,
  /** a CPF/CNPJ whose check digits are wrong */
  ERR_INVALID_DOCUMENT: 400,
  /** no PIX code from the billing system and no PIX key in the settings */
  ERR_PIX_NOT_CONFIGURED: 409,
  /** AI assist is off (setting aiEnabled): nothing is sent anywhere */
  ERR_AI_DISABLED: 404,
  /** the AI server refused the key (401/403) */
  ERR_AI_UNAUTHORIZED: 502,
  /** too many AI requests: this user's limit (Retry-After), or the AI server's own 429 */
  ERR_AI_RATE_LIMITED: 429,
  /** the AI server did not answer in time */
  ERR_AI_TIMEOUT: 504,
  /** the AI server is down, unreachable or failing (5xx, 404 wrong address or model) */
  ERR_AI_UNAVAILABLE: 503,
  /** the AI server answered something that is not what was asked */
  ERR_AI_BAD_ANSWER: 502,
  /** POST /webhooks/whatsapp: missing or wrong X-Hub-Signature-256 (or nothing we know): nothing is kept */
  ERR_WEBHOOK_SIGNATURE: 401,
  /** a Cloud API call (templates) on a connection that is not a Cloud one */
  ERR_NOT_CLOUD_CONNECTION: 400,
  /** the Graph API refused or did not answer */
  ERR_CLOUD_GRAPH: 502,
  /** the customer's 24 h window is closed on this Cloud connection: only a template may go */
  ERR_CLOUD_WINDOW_CLOSED: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** The body every failed call answers with. `fields` names the invalid fields of a validation error. */
export interface ErrorBody {
  error: ErrorCode | string;
  fields?: Record<string, string[]>;
  requestId?: string;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && value in ERROR_STATUS;
}
