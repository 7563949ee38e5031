import "../i18n";
import type { Incident } from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { PageHeader } from "../../../components/PageHeader";
import { useIncidents, useIncidentsLive } from "../api/incidents";
import { CloseIncidentDialog, OpenIncidentDialog } from "./IncidentDialogs";

/** /incidents (admins and supervisors): every incident, its customers, tickets and "normalizado" progress; open and close. */
export default function IncidentsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  useIncidentsLive();
  const list = useIncidents();
  const [opening, setOpening] = useState(false);
  const [closing, setClosing] = useState<Incident | null>(null);
  const rows = list.data ?? [];
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" });
  return (
    <Box sx={{ pb: 3 }}>
      <PageHeader title={t("incidents.title")} subtitle={t("incidents.subtitle")}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpening(true)} data-testid="incident-open">
          {t("incidents.open")}
        </Button>
      </PageHeader>
      <Box sx={{ px: { xs: 2, sm: 3 } }}>
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t("incidents.title")}>
            <TableHead>
              <TableRow>
                <TableCell>{t("incidents.columns.title")}</TableCell>
                <TableCell>{t("incidents.columns.status")}</TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("incidents.columns.opened")}</TableCell>
                <TableCell align="right">{t("incidents.columns.customers")}</TableCell>
                <TableCell align="right">{t("incidents.columns.tickets")}</TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("incidents.columns.normalized")}</TableCell>
                <TableCell align="right">{t("incidents.columns.actions")}</TableCell>
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
                  <TableCell colSpan={7} align="center" sx={{ color: "text.secondary", py: 4 }}>
                    {t("incidents.empty")}
                  </TableCell>
                </TableRow>
              )}
              {rows.map((i) => (
                <TableRow key={i.id} data-testid="incident-row">
                  <TableCell sx={{ maxWidth: 260 }}>
                    <Typography variant="body2" fontWeight={600} sx={{ overflowWrap: "anywhere" }}>
                      {i.title}
                    </Typography>
                    {(i.area || i.tags.length > 0) && (
                      <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
                        {[i.area, i.tags.join(", ")].filter(Boolean).join(" · ")}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={i.status === "open" ? "warning" : "success"}
                      label={i.status === "open" ? t("incidents.statusOpen") : t("incidents.statusClosed")}
                    />
                  </TableCell>
                  <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{date(i.createdAt)}</TableCell>
                  <TableCell align="right">{i.contactCount}</TableCell>
                  <TableCell align="right">
                    <Button size="small" onClick={() => navigate(`/tickets?incident=${i.id}`)}>
                      {i.ticketCount}
                    </Button>
                  </TableCell>
                  <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>
                    {i.status === "closed" ? t("incidents.normalizedProgress", i.normalized) : "—"}
                  </TableCell>
                  <TableCell align="right">
                    {i.status === "open" && (
                      <Button size="small" color="warning" variant="outlined" onClick={() => setClosing(i)}>
                        {t("incidents.close")}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Box>
      <OpenIncidentDialog open={opening} onClose={() => setOpening(false)} />
      <CloseIncidentDialog incident={closing} onClose={() => setClosing(null)} />
    </Box>
  );
}
