import "./i18n";
import InboxIcon from "@mui/icons-material/Inbox";
import SearchOffIcon from "@mui/icons-material/SearchOff";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";

/** Any address the app does not know: says so, shows the address, and leads back to the inbox. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Box
      data-testid="not-found"
      sx={{
        flex: 1,
        display: "flex",
        flexDirection: "column",
        alignItems: "center",
        justifyContent: "center",
        textAlign: "center",
        gap: 1.5,
        px: 3,
        py: 6,
      }}
    >
      <Box
        sx={{
          width: 96,
          height: 96,
          borderRadius: "50%",
          display: "flex",
          alignItems: "center",
          justifyContent: "center",
          bgcolor: "action.hover",
          color: "text.secondary",
          mb: 1,
        }}
      >
        <SearchOffIcon sx={{ fontSize: 48 }} />
      </Box>
      <Typography variant="overline" color="text.secondary" sx={{ letterSpacing: 4, lineHeight: 1 }}>
        404
      </Typography>
      <Typography component="h1" variant="h5" fontWeight={700}>
        {t("common.notFound")}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 440 }}>
        {t("notFoundPage.text")}
      </Typography>
      <Typography
        component="code"
        variant="body2"
        sx={{
          fontFamily: "monospace",
          bgcolor: "action.hover",
          px: 1,
          py: 0.25,
          borderRadius: 1,
          maxWidth: "100%",
          overflowWrap: "anywhere",
        }}
        data-testid="not-found-path"
      >
        {pathname}
      </Typography>
      <Button component={Link} to="/tickets" variant="contained" startIcon={<InboxIcon />} sx={{ mt: 1.5 }} data-testid="not-found-back">
        {t("notFoundPage.back")}
      </Button>
    </Box>
  );
}
