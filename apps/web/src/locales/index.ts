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

type Texts = Record<string, unknown>;

/**
 * Adds the texts of a feature that loads with its screen, in each language: now where the app's own
 * bundle of that language is loaded, later as soon as it is. The app loads English and Spanish on
 * demand and skips a language that already has a bundle, so a feature's texts must only ever join
 * the app's, never come first.
 */
export function addFeatureTexts(bundles: Record<Language, Texts>) {
  const add = (lng: string) => {
    const texts = (bundles as Record<string, Texts | undefined>)[lng];
    if (!texts || !i18n.hasResourceBundle(lng, "translation")) return;
    if (Object.keys(texts).every((ns) => i18n.getResource(lng, "translation", ns) !== undefined)) return;
    i18n.addResourceBundle(lng, "translation", texts, true, false);
  };
  for (const lng of Object.keys(bundles)) add(lng);
  i18n.store.on("added", add);
}

/** Resolves once the starting language's texts are in place. */
export const i18nReady: Promise<void> =
  initial === "pt-BR"
    ? Promise.resolve()
    : loadLanguage(initial)
        .then(() => i18n.changeLanguage(initial))
        .then(() => undefined);

export default i18n;
