/** Business constants of the spec (core §9, document 001 §9). */
export const PREVIEW_LENGTH = 20;
export const SEARCH_DEBOUNCE_MS = 500;
export const SEARCH_MIN_CHARS = 3;
export const TYPING_STOP_DELAY_MS = 1000;
export const TOAST_AUTO_CLOSE_MS = 3000;
export const AUDIO_BITRATE_KBPS = 128;
export const AUDIO_MIN_BYTES = 10_000;
export const DRAWER_WIDTH = 220;
export const QUEUELESS_COLOR = "#7C7C7C";
export const DEFAULT_COUNTRY_CODE = "55";
export const CONNECTION_BADGE_DELAY_MS = 2000;
export const INFINITE_SCROLL_THRESHOLD_PX = 100;
export const MESSAGES_TOP_THRESHOLD_PX = 50;
export const MESSAGE_INPUT_MAX_ROWS = 5;
/** The longest chat message (characters): POST /messages refuses more; the composer counts down near it. */
export const MESSAGE_BODY_MAX = 65_536;
/** The composer shows its counter from this share of MESSAGE_BODY_MAX on. */
export const MESSAGE_COUNTER_FROM = 0.9;
export const BUBBLE_MAX_WIDTH = 600;
export const AUTO_CLOSE_HOURS_DEFAULT = 24;
export const TEXT_TRUNCATE_LIST = 45;
/** The default size limit of one uploaded file (the server's UPLOAD_LIMIT); the web checks it before uploading. */
export const UPLOAD_MAX_BYTES = 16 * 1024 * 1024;

/** Page sizes: the client may ask for more (the original asks 10000), the server caps it. */
export const PAGE_SIZE = {
  tickets: { default: 40, max: 200 },
  messages: { default: 40, max: 200 },
  contacts: { default: 40, max: 200 },
  users: { default: 40, max: 200 },
  quickAnswers: { default: 40, max: 200 },
} as const;

export const ALERT_CONNECTION_STATUSES = ["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING"] as const;
