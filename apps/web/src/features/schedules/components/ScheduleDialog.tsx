import "../i18n";
import { SCHEDULE_IN_PAST, type Ticket } from "@balcao/contract";
import DeleteIcon from "@mui/icons-material/Delete";
import RefreshIcon from "@mui/icons-material/Refresh";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Divider from "@mui/material/Divider";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/http";
import { toastError, toastSuccess } from "../../../lib/toast";
import { useSettings } from "../../settings";
import { useCreateSchedule, useDeleteSchedule, useReloadSchedules, useSchedulesLive, useTicketSchedules } from "../api/schedules";
import { formatWhen, localParts } from "../lib";
import { StatusChip } from "./StatusChip";

/** The server's answer to a time already past: 400 ERR_VALIDATION, `fields.when: [SCHEDULE_IN_PAST]`. */
export function isPastTime(err: unknown): boolean {
  return err instanceof ApiError && err.code === "ERR_VALIDATION" && (err.fields?.when ?? []).includes(SCHEDULE_IN_PAST);
}

/** The Agendar dialog of a ticket (§2): its schedules (refresh, delete) and a new one (Data, Hora, Mensagem). */
export function ScheduleDialog({ ticket, open, onClose }: { ticket: Ticket; open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down("sm"));
  const { get } = useSettings();
  const zone = get("timezone") || undefined;
  const list = useTicketSchedules(ticket.id, open);
  const create = useCreateSchedule();
  const remove = useDeleteSchedule();
  const reload = useReloadSchedules();
  useSchedulesLive();
  const [date, setDate] = useState("");
  const [time, setTime] = useState("");
  const [message, setMessage] = useState("");
  const [cancelOnReply, setCancelOnReply] = useState(true);
  const [sign, setSign] = useState(true);
  const [invalid, setInvalid] = useState(false);
  /** the server said the chosen time is past (SCHEDULE_IN_PAST): shown at Hora until date or time change */
  const [past, setPast] = useState(false);

  useEffect(() => {
    if (!open) return;
    setDate(localParts(new Date(), zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone).date);
    setTime("");
    setMessage("");
    setInvalid(false);
    setPast(false);
  }, [open, zone]);

  const submit = () => {
    // §5: date, time and a non-blank message
    if (!date || !time || !message.trim()) {
      setInvalid(true);
      toastError(t("schedules.dialog.required"));
      return;
    }
    setInvalid(false);
    setPast(false);
    create.mutate(
      {
        ticketId: ticket.id,
        contactId: ticket.contactId,
        customerNumber: ticket.contact.number ?? "",
        message,
        when: `${date}T${time}:00`,
        cancelOnReply,
        sign,
      },
      {
        onSuccess: () => {
          toastSuccess(t("schedules.dialog.created"));
          setMessage("");
          setTime("");
          setInvalid(false);
        },
        onError: (err) => {
          if (isPastTime(err)) setPast(true);
          else toastError(err);
        },
      },
    );
  };

  const rows = list.data ?? [];
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth fullScreen={fullScreen} aria-labelledby="schedule-title">
      <DialogTitle id="schedule-title" sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <Box sx={{ flex: 1 }}>{t("schedules.dialog.title")}</Box>
        <Tooltip title={t("schedules.reload")}>
          <IconButton aria-label={t("schedules.reload")} onClick={() => void reload()} data-testid="schedule-refresh">
            <RefreshIcon />
          </IconButton>
        </Tooltip>
      </DialogTitle>
      <DialogContent dividers>
        <Typography variant="subtitle2" gutterBottom>
          {t("schedules.dialog.list")}
        </Typography>
        {list.isLoading && <LinearProgress />}
        {!list.isLoading && !rows.length && (
          <Typography variant="body2" color="text.secondary" sx={{ py: 1 }} data-testid="schedule-dialog-empty">
            {t("schedules.dialog.none")}
          </Typography>
        )}
        <List dense disablePadding sx={{ maxHeight: 220, overflowY: "auto" }}>
          {rows.map((s) => (
            <ListItem
              key={s.id}
              divider
              data-testid="schedule-dialog-row"
              secondaryAction={
                <Tooltip title={s.status === "pending" ? t("schedules.cancel") : t("schedules.delete")}>
                  <span>
                    <IconButton
                      edge="end"
                      aria-label={s.status === "pending" ? t("schedules.cancel") : t("schedules.delete")}
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate(s.id, {
                          onSuccess: (r) => toastSuccess(r.removed ? t("schedules.deleted") : t("schedules.canceled")),
                          onError: toastError,
                        })
                      }
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              }
              sx={{ pr: 7 }}
            >
              <ListItemText
                primary={s.message}
                primaryTypographyProps={{ sx: { whiteSpace: "pre-wrap", wordBreak: "break-word" } }}
                secondary={
                  <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 1, mt: 0.5, flexWrap: "wrap" }}>
                    <span>{formatWhen(s.when, zone, i18n.language)}</span>
                    <StatusChip status={s.status} reason={s.reason} queued={!s.sentAt} />
                  </Box>
                }
                secondaryTypographyProps={{ component: "span" }}
              />
            </ListItem>
          ))}
        </List>
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle2" gutterBottom>
          {t("schedules.dialog.new")}
        </Typography>
        <Box
          component="form"
          id="schedule-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
          sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, gap: 2, pt: 1 }}
        >
          <TextField
            label={t("schedules.dialog.date")}
            type="date"
            value={date}
            onChange={(e) => {
              setDate(e.target.value);
              setPast(false);
            }}
            error={(invalid && !date) || past}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "schedule-date" } }}
            size="small"
          />
          <TextField
            label={t("schedules.dialog.time")}
            type="time"
            value={time}
            onChange={(e) => {
              setTime(e.target.value);
              setPast(false);
            }}
            error={(invalid && !time) || past}
            helperText={past ? t("schedules.dialog.past") : undefined}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "schedule-time" } }}
            size="small"
          />
          <TextField
            label={t("schedules.dialog.message")}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            error={invalid && !message.trim()}
            multiline
            minRows={3}
            sx={{ gridColumn: "1 / -1" }}
            slotProps={{ htmlInput: { "data-testid": "schedule-message", maxLength: 4096 } }}
          />
          <Box sx={{ gridColumn: "1 / -1", display: "flex", flexWrap: "wrap", columnGap: 2 }}>
            <FormControlLabel
              control={<Checkbox checked={cancelOnReply} onChange={(e) => setCancelOnReply(e.target.checked)} />}
              label={t("schedules.dialog.cancelOnReply")}
            />
            <FormControlLabel
              control={<Checkbox checked={sign} onChange={(e) => setSign(e.target.checked)} />}
              label={t("schedules.dialog.sign")}
            />
          </Box>
          {invalid && (
            <Alert severity="warning" sx={{ gridColumn: "1 / -1" }}>
              {t("schedules.dialog.required")}
            </Alert>
          )}
          {ticket.whatsapp && (
            <Typography variant="body2" color="text.secondary" sx={{ gridColumn: "1 / -1" }} data-testid="schedule-via">
              {t(sign ? "schedules.dialog.via" : "schedules.dialog.viaUnsigned", { name: ticket.whatsapp.name })}
            </Typography>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("schedules.dialog.close")}</Button>
        <Button type="submit" form="schedule-form" variant="contained" disabled={create.isPending} data-testid="schedule-submit">
          {t("schedules.dialog.submit")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
