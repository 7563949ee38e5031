import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import { useSettings } from "../../features/settings";
import { TicketsManager } from "../../features/tickets";
import { toastError } from "../../lib/toast";
import { ChatView } from "./ChatView";

const visuallyHidden = {
  position: "absolute",
  width: "1px",
  height: "1px",
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
} as const;

function Welcome() {
  const { t } = useTranslation();
  const { get } = useSettings();
  return (
    <Box
      data-testid="tickets-welcome"
      sx={{
        flex: 1,
        display: "flex",
        flexDirection: "column",
        alignItems: "center",
        justifyContent: "center",
        gap: 2,
        p: 4,
        textAlign: "center",
      }}
    >
      <Box component="img" src={get("logoDashboard") || "/brand.svg"} alt="Balcão" sx={{ width: 160, maxWidth: "50%", opacity: 0.9 }} />
      <Typography variant="h5">{t("tickets.welcomeTitle")}</Typography>
      <Typography color="text.secondary">{t("tickets.welcomeText")}</Typography>
    </Box>
  );
}

/** One of the two panes: side by side from md up; on phones only one shows, the list or the chat. */
const pane = (onPhones: boolean) =>
  ({
    display: { xs: onPhones ? "flex" : "none", md: "flex" },
    flexDirection: "column",
    minHeight: 0,
    overflow: "hidden",
    borderRadius: { xs: 0, md: 1 },
  }) as const;

/** /, /tickets/:ticketId? and /chat/:ticketId?: the lists beside the chat (one pane at a time on phones). */
export default function TicketsPage() {
  const { ticketId: raw } = useParams();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const ticketId = raw ? Number(raw) : undefined;
  const valid = ticketId !== undefined && Number.isInteger(ticketId) && ticketId > 0;
  useEffect(() => {
    if (raw !== undefined && !valid) {
      toastError(t("tickets.noTicketId"));
      navigate("/tickets", { replace: true });
    }
  }, [raw, valid, navigate, t]);
  const chatOpen = valid;
  return (
    <Box sx={{ flex: 1, minHeight: 0, display: "flex", p: { xs: 0, md: 1 }, gap: { xs: 0, md: 1 } }}>
      <Typography variant="h1" sx={visuallyHidden}>
        {t("pages.tickets")}
      </Typography>
      <Paper variant="outlined" sx={{ width: { xs: "100%", md: 380, lg: 420 }, flexShrink: 0, ...pane(!chatOpen) }}>
        <TicketsManager selectedId={valid ? ticketId : undefined} />
      </Paper>
      <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, ...pane(chatOpen) }}>
        {chatOpen ? <ChatView key={ticketId} ticketId={ticketId} /> : <Welcome />}
      </Paper>
    </Box>
  );
}
