import Box from "@mui/material/Box";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/PageHeader";
import { useAuth } from "../auth";
import { ComingSoonPage } from "./ComingSoonPage";

/** Base address of the embedded finance pages, from build configuration. */
const FINANCE_URL = (import.meta.env.VITE_FINANCE_URL as string | undefined)?.replace(/\/$/, "");

export function EmbeddedPage({ titleKey, path, withUser }: { titleKey: string; path: string; withUser: boolean }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  if (!FINANCE_URL) return <ComingSoonPage titleKey={titleKey} text={t("pages.embeddedNotConfigured")} />;
  const src = `${FINANCE_URL}/${path}${withUser && user ? `?id=${user.id}` : ""}`;
  return (
    <>
      <PageHeader title={t(titleKey)} />
      <Box component="iframe" title={t(titleKey)} src={src} sx={{ flex: 1, border: 0, width: "100%" }} />
    </>
  );
}
