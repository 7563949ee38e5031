import "../i18n";
import type { Incident } from "@balcao/contract";
import ReportProblemIcon from "@mui/icons-material/ReportProblem";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useIncidents, useIncidentsLive } from "../api/incidents";
import { CloseIncidentDialog } from "./IncidentDialogs";

function when(iso: string, lang: string): string {
  return new Date(iso).toLocaleString(lang, { day: "2-digit", month: "2-digit", hour: "2-digit", minute: "2-digit" });
}

/**
 * The outage banner every signed-in user sees above the screen while incidents are open (live by
 * the `incident` socket event): title, area, expected return, its tickets (a link to the list
 * filtered by it) and, for admins and supervisors, Encerrar.
 */
export function IncidentBanner({ canManage }: { canManage: boolean }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  useIncidentsLive();
  const open = useIncidents("open").data ?? [];
  const [closing, setClosing] = useState<Incident | null>(null);
  if (!open.length) return null;
  return (
    <Box sx={{ display: "flex", flexDirection: "column" }} data-testid="incident-banner">
      {open.map((incident) => (
        <Alert
          key={incident.id}
          severity="warning"
          variant="filled"
          icon={<ReportProblemIcon />}
          square
          sx={{
            py: 0.25,
            px: { xs: 1.5, sm: 2 },
            alignItems: "center",
            flexWrap: { xs: "wrap", sm: "nowrap" },
            "& .MuiAlert-message": { minWidth: 0, flex: 1, py: { xs: 0.75, sm: 1 } },
            // on a phone the buttons go under the text, which keeps the whole width
            "& .MuiAlert-action": {
              ml: { xs: 0, sm: "auto" },
              pl: { xs: 0, sm: 2 },
              pt: 0,
              pb: { xs: 1, sm: 0 },
              width: { xs: "100%", sm: "auto" },
            },
          }}
          action={
            <Box
              sx={{
                display: "flex",
                gap: 1,
                flexWrap: "wrap",
                justifyContent: { xs: "flex-start", sm: "flex-end" },
                pl: { xs: 4.5, sm: 0 },
              }}
            >
              <Button color="inherit" size="small" variant="outlined" onClick={() => navigate(`/tickets?incident=${incident.id}`)}>
                {t("incidents.seeTickets")}
              </Button>
              {canManage && (
                <Button color="inherit" size="small" variant="outlined" onClick={() => setClosing(incident)} data-testid="incident-close">
                  {t("incidents.close")}
                </Button>
              )}
            </Box>
          }
        >
          <Typography variant="body2" fontWeight={700} sx={{ overflowWrap: "anywhere" }}>
            {t("incidents.banner", { title: incident.title })}
          </Typography>
          <Typography variant="caption" component="div" sx={{ opacity: 0.95, overflowWrap: "anywhere" }}>
            {[
              incident.area && t("incidents.area", { area: incident.area }),
              incident.expectedAt && t("incidents.expected", { when: when(incident.expectedAt, i18n.language) }),
              t("incidents.tickets", { count: incident.ticketCount }),
            ]
              .filter(Boolean)
              .join(" · ")}
          </Typography>
        </Alert>
      ))}
      <CloseIncidentDialog incident={closing} onClose={() => setClosing(null)} />
    </Box>
  );
}
