import "../i18n";
import type { Incident } from "@balcao/contract";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import TextField from "@mui/material/TextField";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/FormDialog";
import { toastError, toastSuccess } from "../../../lib/toast";
import { useCloseIncident, useCreateIncident } from "../api/incidents";

/** Abrir incidente: title, the customers' message, area, cities or tags, expected return. */
export function OpenIncidentDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateIncident();
  const [title, setTitle] = useState("");
  const [message, setMessage] = useState("");
  const [area, setArea] = useState("");
  const [tags, setTags] = useState("");
  const [expectedAt, setExpectedAt] = useState("");
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!open) return;
    setTitle("");
    setMessage(t("incidents.form.messageDefault"));
    setArea("");
    setTags("");
    setExpectedAt("");
    setTried(false);
  }, [open, t]);
  const titleBad = title.trim().length < 3;
  const messageBad = message.trim().length < 3;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (titleBad || messageBad) return;
    create.mutate(
      {
        title: title.trim(),
        message: message.trim(),
        area: area.trim(),
        tags: tags
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
        expectedAt: expectedAt ? new Date(expectedAt).toISOString() : null,
      },
      {
        onSuccess: () => {
          toastSuccess(t("incidents.form.opened"));
          onClose();
        },
        onError: toastError,
      },
    );
  };
  return (
    <FormDialog
      open={open}
      title={t("incidents.form.title")}
      onClose={onClose}
      onSubmit={submit}
      submitting={create.isPending}
      submitLabel={t("incidents.form.submit")}
    >
      <TextField
        label={t("incidents.form.name")}
        placeholder={t("incidents.form.namePlaceholder")}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={tried && titleBad}
        autoFocus
        required
        slotProps={{ htmlInput: { maxLength: 120, "data-testid": "incident-title" } }}
      />
      <TextField
        label={t("incidents.form.message")}
        helperText={t("incidents.form.messageHelp")}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        error={tried && messageBad}
        multiline
        minRows={3}
        required
        slotProps={{ htmlInput: { maxLength: 2000, "data-testid": "incident-message" } }}
      />
      <TextField
        label={t("incidents.form.area")}
        value={area}
        onChange={(e) => setArea(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 300, "data-testid": "incident-area" } }}
      />
      <TextField label={t("incidents.form.tags")} value={tags} onChange={(e) => setTags(e.target.value)} />
      <TextField
        label={t("incidents.form.expectedAt")}
        type="datetime-local"
        value={expectedAt}
        onChange={(e) => setExpectedAt(e.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "incident-expected" } }}
      />
    </FormDialog>
  );
}

/** Encerrar: the "normalizado" notice (the default filled with the title) and whether the incident's tickets are finished too. */
export function CloseIncidentDialog({ incident, onClose }: { incident: Incident | null; onClose: () => void }) {
  const { t } = useTranslation();
  const close = useCloseIncident();
  const [message, setMessage] = useState("");
  const [closeTickets, setCloseTickets] = useState(false);
  useEffect(() => {
    if (!incident) return;
    setMessage(t("incidents.closeForm.messageDefault", { title: incident.title }));
    setCloseTickets(false);
  }, [incident, t]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!incident) return;
    close.mutate(
      { id: incident.id, body: { message: message.trim() || undefined, closeTickets } },
      {
        onSuccess: () => {
          toastSuccess(t("incidents.closeForm.closed"));
          onClose();
        },
        onError: toastError,
      },
    );
  };
  return (
    <FormDialog
      open={incident !== null}
      title={t("incidents.closeForm.title")}
      onClose={onClose}
      onSubmit={submit}
      submitting={close.isPending}
      submitLabel={t("incidents.closeForm.submit")}
    >
      <TextField
        label={t("incidents.closeForm.message")}
        helperText={t("incidents.closeForm.messageHelp")}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        multiline
        minRows={3}
        slotProps={{ htmlInput: { maxLength: 2000, "data-testid": "incident-close-message" } }}
      />
      <FormControlLabel
        control={
          <Checkbox checked={closeTickets} onChange={(e) => setCloseTickets(e.target.checked)} data-testid="incident-close-tickets" />
        }
        label={t("incidents.closeForm.closeTickets", { count: incident?.ticketCount ?? 0 })}
      />
    </FormDialog>
  );
}
