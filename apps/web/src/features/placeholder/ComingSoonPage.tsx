import ConstructionIcon from "@mui/icons-material/Construction";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/PageHeader";

/** An honest page for a screen that is not built yet: no fake data. */
export function ComingSoonPage({ titleKey, text }: { titleKey: string; text?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(titleKey)} />
      <Box sx={{ px: 3, py: 6, textAlign: "center", color: "text.secondary" }}>
        <ConstructionIcon sx={{ fontSize: 48, opacity: 0.5, mb: 1 }} />
        <Typography>{text ?? t("pages.comingSoon")}</Typography>
      </Box>
    </>
  );
}
