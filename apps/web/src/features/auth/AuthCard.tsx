import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LanguageMenu } from "../../components/layout/LanguageMenu";
import { useLoginColors } from "./api/get-colors";

/** The branded frame of the login and signup pages: colours and logo from GET /colors. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const colors = useLoginColors();
  return (
    <Box
      sx={{
        minHeight: "100dvh",
        display: "flex",
        flexDirection: "column",
        alignItems: "center",
        justifyContent: "center",
        p: 2,
        background: `linear-gradient(160deg, ${colors.primary} 0%, ${colors.primary} 45%, ${colors.secondary} 45%)`,
      }}
    >
      <Box sx={{ position: "fixed", top: 8, right: 8, color: "#fff" }}>
        <LanguageMenu />
      </Box>
      <Paper elevation={6} sx={{ width: "100%", maxWidth: 400, p: { xs: 3, sm: 4 }, borderRadius: 3 }}>
        <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", mb: 2, gap: 1 }}>
          <Box component="img" src={colors.logo} alt="Balcão" sx={{ height: 64, maxWidth: "100%", objectFit: "contain" }} />
          <Typography component="h1" variant="h5" fontWeight={700}>
            {title}
          </Typography>
        </Box>
        {children}
      </Paper>
      <Typography variant="caption" sx={{ mt: 3, color: "text.secondary" }}>
        {t("login.copyright", { year: new Date().getFullYear() })}
      </Typography>
    </Box>
  );
}
