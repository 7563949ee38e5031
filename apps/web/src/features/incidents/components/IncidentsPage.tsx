import "../i18n";
import type { Incident } from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import type { Theme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { PageHeader } from "../../../components/PageHeader";
import { useIncidents, useIncidentsLive } from "../api/incidents";
import { CloseIncidentDialog, OpenIncidentDialog } from "./IncidentDialogs";

/**
 * The title: wrapped between words (a word longer than the column is broken, never every letter);
 * in the table two lines at most, all of it in its tooltip; whole on a phone's card.
 */
function Title({ incident, clamp }: { incident: Incident; clamp?: boolean }) {
  return (
    <>
      <Typography
        variant="body2"
        fontWeight={600}
        title={clamp ? incident.title : undefined}
        sx={{
          overflowWrap: "break-word",
          ...(clamp && { display: "-webkit-box", WebkitLineClamp: 2, WebkitBoxOrient: "vertical", overflow: "hidden" }),
        }}
        data-testid="incident-title"
      >
        {incident.title}
      </Typography>
      {(incident.area || incident.tags.length > 0) && (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: "break-word" }}>
          {[incident.area, incident.tags.join(", ")].filter(Boolean).join(" · ")}
        </Typography>
      )}
    </>
  );
}

/** A column as wide as its content (never wrapped): the title's column gets the rest. */
const fit = { width: "1%", whiteSpace: "nowrap" } as const;

function StatusChip({ incident }: { incident: Incident }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={incident.status === "open" ? "warning" : "success"}
      label={incident.status === "open" ? t("incidents.statusOpen") : t("incidents.statusClosed")}
    />
  );
}

/** /incidents (admins and supervisors): every incident, its customers, tickets and "normalizado" progress; open and close. */
export default function IncidentsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const phone = useMediaQuery((th: Theme) => th.breakpoints.down("sm"));
  useIncidentsLive();
  const list = useIncidents();
  const [opening, setOpening] = useState(false);
  const [closing, setClosing] = useState<Incident | null>(null);
  const rows = list.data ?? [];
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" });
  const closeButton = (i: Incident) =>
    i.status === "open" && (
      <Button size="small" color="warning" variant="outlined" onClick={() => setClosing(i)} sx={{ whiteSpace: "nowrap" }}>
        {t("incidents.close")}
      </Button>
    );
  const ticketsButton = (i: Incident, text: string) => (
    <Button size="small" onClick={() => navigate(`/tickets?incident=${i.id}`)} sx={{ whiteSpace: "nowrap" }}>
      {text}
    </Button>
  );
  const empty = (
    <Typography color="text.secondary" sx={{ textAlign: "center", py: 4 }}>
      {t("incidents.empty")}
    </Typography>
  );
  return (
    <Box sx={{ pb: 3 }}>
      <PageHeader title={t("incidents.title")} subtitle={t("incidents.subtitle")}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpening(true)} data-testid="incident-open">
          {t("incidents.open")}
        </Button>
      </PageHeader>
      <Box sx={{ px: { xs: 2, sm: 3 } }}>
        {phone ? (
          // on phones each incident is a card, as on the other list screens
          <Stack spacing={1} aria-label={t("incidents.title")} data-testid="incident-cards">
            {list.isLoading ? (
              <Box sx={{ display: "flex", justifyContent: "center", py: 3 }}>
                <CircularProgress size={24} />
              </Box>
            ) : rows.length === 0 ? (
              empty
            ) : (
              rows.map((i) => (
                <Paper key={i.id} variant="outlined" sx={{ p: 1.5 }} data-testid="incident-card">
                  <Box sx={{ display: "flex", gap: 1, alignItems: "flex-start", justifyContent: "space-between" }}>
                    <Box sx={{ minWidth: 0 }}>
                      <Title incident={i} />
                    </Box>
                    <StatusChip incident={i} />
                  </Box>
                  <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
                    {t("incidents.columns.opened")}: {date(i.createdAt)} · {t("incidents.columns.customers")}: {i.contactCount}
                  </Typography>
                  {i.status === "closed" && (
                    <Typography variant="caption" color="text.secondary" component="div">
                      {t("incidents.columns.normalized")}: {t("incidents.normalizedProgress", i.normalized)}
                    </Typography>
                  )}
                  <Box sx={{ display: "flex", justifyContent: "space-between", alignItems: "center", mt: 0.5, ml: -1 }}>
                    {ticketsButton(i, t("incidents.tickets", { count: i.ticketCount }))}
                    {closeButton(i)}
                  </Box>
                </Paper>
              ))
            )}
          </Stack>
        ) : (
          <TableContainer component={Paper} variant="outlined" sx={{ overflowX: "auto" }}>
            <Table size="small" aria-label={t("incidents.title")} sx={{ minWidth: { sm: 560, md: 760 } }}>
              <TableHead>
                <TableRow sx={{ "& th": { fontWeight: 700 } }}>
                  {/* the title takes what the others leave; they keep to their content */}
                  <TableCell sx={{ minWidth: 220 }}>{t("incidents.columns.title")}</TableCell>
                  <TableCell sx={fit}>{t("incidents.columns.status")}</TableCell>
                  <TableCell sx={{ ...fit, display: { xs: "none", md: "table-cell" } }}>{t("incidents.columns.opened")}</TableCell>
                  <TableCell align="right" sx={fit}>
                    {t("incidents.columns.customers")}
                  </TableCell>
                  <TableCell align="right" sx={fit}>
                    {t("incidents.columns.tickets")}
                  </TableCell>
                  <TableCell sx={{ display: { xs: "none", md: "table-cell" }, minWidth: 160, width: 200 }}>
                    {t("incidents.columns.normalized")}
                  </TableCell>
                  <TableCell align="right" sx={fit}>
                    {t("incidents.columns.actions")}
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.isLoading && (
                  <TableRow>
                    <TableCell colSpan={7} align="center">
                      <CircularProgress size={24} />
                    </TableCell>
                  </TableRow>
                )}
                {!list.isLoading && rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={7}>{empty}</TableCell>
                  </TableRow>
                )}
                {rows.map((i) => (
                  <TableRow key={i.id} data-testid="incident-row">
                    <TableCell>
                      <Title incident={i} clamp />
                    </TableCell>
                    <TableCell sx={{ whiteSpace: "nowrap" }}>
                      <StatusChip incident={i} />
                    </TableCell>
                    <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{date(i.createdAt)}</TableCell>
                    <TableCell align="right">{i.contactCount}</TableCell>
                    <TableCell align="right">{ticketsButton(i, String(i.ticketCount))}</TableCell>
                    <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>
                      {i.status === "closed" ? t("incidents.normalizedProgress", i.normalized) : "—"}
                    </TableCell>
                    <TableCell align="right">{closeButton(i)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Box>
      <OpenIncidentDialog open={opening} onClose={() => setOpening(false)} />
      <CloseIncidentDialog incident={closing} onClose={() => setClosing(null)} />
    </Box>
  );
}
