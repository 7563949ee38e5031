import { PUBLIC_URL_WARNING_TEXTS, type PublicUrlWarning } from "@balcao/contract";
import Alert from "@mui/material/Alert";
import Stack from "@mui/material/Stack";
import { useTranslation } from "react-i18next";

/**
 * The public address's warnings (not HTTPS; local or internal), in the page's language. Its texts
 * live here, not in the settings texts: the connection dialog shows them too (the Cloud webhook URL).
 */
const TEXTS: Record<string, Record<PublicUrlWarning | "unset", string>> = {
  "pt-BR": {
    ...PUBLIC_URL_WARNING_TEXTS,
    unset:
      "Endereço público não configurado: os links usam o endereço deste navegador. Atrás de um proxy, preencha o endereço público (ou a variável PUBLIC_URL do servidor).",
  },
  en: {
    private:
      "The public address is local or on the internal network: Meta (WhatsApp Cloud API) and the customers who get signing links cannot reach it from the internet.",
    not_https: "The public address does not use HTTPS: the WhatsApp Cloud API and signing links need HTTPS.",
    unset:
      "No public address configured: links use this browser's address. Behind a proxy, fill in the public address (or the server's PUBLIC_URL variable).",
  },
  es: {
    private:
      "La dirección pública es local o de la red interna: Meta (WhatsApp Cloud API) y los clientes que reciben los enlaces de firma no pueden acceder a ella desde internet.",
    not_https: "La dirección pública no usa HTTPS: la WhatsApp Cloud API y los enlaces de firma necesitan HTTPS.",
    unset:
      "Dirección pública no configurada: los enlaces usan la dirección de este navegador. Detrás de un proxy, complete la dirección pública (o la variable PUBLIC_URL del servidor).",
  },
};

export function publicUrlWarningText(code: PublicUrlWarning | "unset", language: string): string {
  return (TEXTS[language] ?? TEXTS["pt-BR"])[code];
}

export function PublicUrlWarnings({ warnings, unset = false }: { warnings: readonly PublicUrlWarning[]; unset?: boolean }) {
  const { i18n } = useTranslation();
  const codes: (PublicUrlWarning | "unset")[] = [...(unset ? (["unset"] as const) : []), ...warnings];
  if (!codes.length) return null;
  return (
    <Stack spacing={1} data-testid="public-url-warnings">
      {codes.map((c) => (
        <Alert key={c} severity={c === "unset" ? "info" : "warning"} data-testid={`public-url-warning-${c}`}>
          {publicUrlWarningText(c, i18n.language)}
        </Alert>
      ))}
    </Stack>
  );
}
