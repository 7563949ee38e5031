import { ApiError } from "./http";

/**
 * The text of an error toast: the translated catalogue message of an ERR_… code, else the raw
 * text, else '500 Erro Interno no Servidor' (its translation).
 */
export function errorMessage(err: unknown, translate: (key: string) => string | undefined): string {
  const raw = err instanceof ApiError ? err.code : err instanceof Error ? err.message : typeof err === "string" ? err : undefined;
  if (raw?.startsWith("ERR_")) {
    const known = translate(`errors.${raw}`);
    if (known) return known;
  }
  return raw?.trim() || translate("errors.internal") || "500 Erro Interno no Servidor";
}
