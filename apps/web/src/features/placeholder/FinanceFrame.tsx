import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { isAdmin, useAuth } from "../auth";
import { useSettings } from "../settings";

/**
 * What a finance frame may do: run its scripts with its own origin (its session), submit forms,
 * open its receipts in new windows and download files. No top navigation, no modals over the app.
 */
export const FINANCE_SANDBOX = "allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads";

/** The address of a finance page: financeBaseUrl + path (+ query), or null while it is not set. */
export function financeUrl(base: string, path: string, query?: Record<string, string | number>): string | null {
  if (!/^https?:\/\//i.test(base)) return null;
  const url = new URL(`${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`);
  for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, String(v));
  return url.toString();
}

/** A page of the finance tool in a sandboxed frame; with no financeBaseUrl, what to configure (and a link for admins). */
export function FinanceFrame({ title, path, query }: { title: string; path: string; query?: Record<string, string | number> }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { get, isLoading } = useSettings();
  const src = financeUrl(get("financeBaseUrl"), path, query);
  if (isLoading) return null;
  if (!src)
    return (
      <Box sx={{ px: 3, py: 6, textAlign: "center", color: "text.secondary" }} data-testid="finance-not-configured">
        <Typography sx={{ mb: 2 }}>{t("pages.embeddedNotConfigured")}</Typography>
        {isAdmin(user) && (
          <Button component={Link} to="/Settings" variant="outlined">
            {t("menu.settings")}
          </Button>
        )}
      </Box>
    );
  return (
    <Box
      component="iframe"
      title={title}
      src={src}
      sandbox={FINANCE_SANDBOX}
      referrerPolicy="no-referrer"
      sx={{ flex: 1, border: 0, width: "100%", minHeight: 400 }}
    />
  );
}
