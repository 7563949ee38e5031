import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { pt } from "./pt";

export const LANGUAGES = [
  { code: "pt-BR", label: "Português (Brasil)" },
  { code: "en", label: "English" },
  { code: "es", label: "Español" },
] as const;
export type Language = (typeof LANGUAGES)[number]["code"];
export const LANGUAGE_KEY = "i18nextLng";

/** A stored choice wins (Brazilian Portuguese included); otherwise the browser's language; English as the fallback. */
export function pickLanguage(stored: string | null, browser: readonly string[]): Language {
  const match = (tag: string): Language | undefined => {
    const t = tag.toLowerCase();
    if (t.startsWith("pt")) return "pt-BR";
    if (t.startsWith("es")) return "es";
    if (t.startsWith("en")) return "en";
    return undefined;
  };
  if (stored) {
    const s = match(stored);
    if (s) return s;
  }
  for (const b of browser) {
    const m = match(b);
    if (m) return m;
  }
  return "en";
}

function storedLanguage() {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}

/** Brazilian Portuguese ships with the first page; English and Spanish load when chosen. */
async function loadLanguage(lng: Language) {
  if (i18n.hasResourceBundle(lng, "translation")) return;
  const messages = lng === "es" ? (await import("./es")).es : (await import("./en")).en;
  i18n.addResourceBundle(lng, "translation", messages);
}

export async function setLanguage(lng: Language) {
  localStorage.setItem(LANGUAGE_KEY, lng);
  document.documentElement.lang = lng;
  await loadLanguage(lng);
  await i18n.changeLanguage(lng);
}

const initial = pickLanguage(storedLanguage(), typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]));
if (typeof document !== "undefined") document.documentElement.lang = initial;

void i18n.use(initReactI18next).init({
  resources: { "pt-BR": { translation: pt } },
  lng: "pt-BR",
  fallbackLng: "en",
  supportedLngs: ["pt-BR", "en", "es"],
  partialBundledLanguages: true,
  showSupportNotice: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Resolves once the starting language's texts are in place. */
export const i18nReady: Promise<void> =
  initial === "pt-BR"
    ? Promise.resolve()
    : loadLanguage(initial)
        .then(() => i18n.changeLanguage(initial))
        .then(() => undefined);

export default i18n;
