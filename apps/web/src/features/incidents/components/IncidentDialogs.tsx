import "../i18n";
import { INCIDENT_VARIABLES, type Incident, type IncidentAudience } from "@balcao/contract";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Checkbox from "@mui/material/Checkbox";
import Chip from "@mui/material/Chip";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/FormDialog";
import { toastError, toastSuccess } from "../../../lib/toast";
import { useCloseIncident, useCreateIncident } from "../api/incidents";

/** The variables a notice may use, beside its field: a click adds one at the end of the text. */
function VariableList({ onPick }: { onPick: (name: string) => void }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 0.5, mt: -1 }} data-testid="incident-variables">
      <Typography variant="caption" color="text.secondary">
        {t("incidents.form.variables")}
      </Typography>
      {INCIDENT_VARIABLES.map((v) => (
        <Tooltip key={v} title={t(`incidents.form.variable.${v}`)}>
          <Chip size="small" variant="outlined" label={`{${v}}`} onClick={() => onPick(`{${v}}`)} />
        </Tooltip>
      ))}
    </Box>
  );
}

/** Cities, POPs or tags: free words, each a chip (Enter adds one). */
function PlacesField({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string[];
  onChange: (v: string[]) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Autocomplete
      multiple
      freeSolo
      options={[] as string[]}
      value={value}
      onChange={(_, v) => onChange(v.map((s) => s.trim()).filter(Boolean))}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          helperText={t("incidents.form.placesHelp")}
          slotProps={{ htmlInput: { ...params.inputProps, "data-testid": testId } }}
        />
      )}
    />
  );
}

const append = (text: string, v: string) => (text && !/\s$/.test(text) ? `${text} ${v}` : `${text}${v}`);

/**
 * Abrir incidente: title, the customers' message (with its variables), who gets it (todos os
 * clientes, or only those placed in its cities, POPs or tags — an explicit choice), the area's
 * text, expected return.
 */
export function OpenIncidentDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateIncident();
  const [title, setTitle] = useState("");
  const [message, setMessage] = useState("");
  const [area, setArea] = useState("");
  const [audience, setAudience] = useState<IncidentAudience | "">("");
  const [cities, setCities] = useState<string[]>([]);
  const [pops, setPops] = useState<string[]>([]);
  const [tags, setTags] = useState<string[]>([]);
  const [expectedAt, setExpectedAt] = useState("");
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!open) return;
    setTitle("");
    setMessage(t("incidents.form.messageDefault"));
    setArea("");
    setAudience("");
    setCities([]);
    setPops([]);
    setTags([]);
    setExpectedAt("");
    setTried(false);
  }, [open, t]);
  const titleBad = title.trim().length < 3;
  const messageBad = message.trim().length < 3;
  const audienceBad = audience === "";
  const areaBad = audience === "area" && cities.length + pops.length + tags.length === 0;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (titleBad || messageBad || audienceBad || areaBad) return;
    create.mutate(
      {
        title: title.trim(),
        message: message.trim(),
        area: area.trim(),
        audience: audience as IncidentAudience,
        cities: audience === "area" ? cities : [],
        pops: audience === "area" ? pops : [],
        tags: audience === "area" ? tags : [],
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
      <VariableList onPick={(v) => setMessage((m) => append(m, v))} />
      <TextField
        label={t("incidents.form.area")}
        value={area}
        onChange={(e) => setArea(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 300, "data-testid": "incident-area" } }}
      />
      <FormControl error={tried && (audienceBad || areaBad)} data-testid="incident-audience">
        <FormLabel>{t("incidents.form.audience")}</FormLabel>
        <RadioGroup value={audience} onChange={(e) => setAudience(e.target.value as IncidentAudience)}>
          <FormControlLabel value="all" control={<Radio />} label={t("incidents.form.audienceAll")} />
          <FormControlLabel value="area" control={<Radio />} label={t("incidents.form.audienceArea")} />
        </RadioGroup>
        <FormHelperText>
          {tried && audienceBad
            ? t("incidents.form.audienceNeeded")
            : tried && areaBad
              ? t("incidents.form.areaNeeded")
              : t("incidents.form.audienceHelp")}
        </FormHelperText>
      </FormControl>
      {audience === "area" && (
        <>
          <PlacesField label={t("incidents.form.cities")} value={cities} onChange={setCities} testId="incident-cities" />
          <PlacesField label={t("incidents.form.pops")} value={pops} onChange={setPops} testId="incident-pops" />
          <PlacesField label={t("incidents.form.tags")} value={tags} onChange={setTags} testId="incident-tags" />
        </>
      )}
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
      <VariableList onPick={(v) => setMessage((m) => append(m, v))} />
      <FormControlLabel
        control={
          <Checkbox checked={closeTickets} onChange={(e) => setCloseTickets(e.target.checked)} data-testid="incident-close-tickets" />
        }
        label={t("incidents.closeForm.closeTickets", { count: incident?.ticketCount ?? 0 })}
      />
    </FormDialog>
  );
}
