import {
  DISPARO_SUGGESTED_WINDOW,
  type DisparoConnection,
  type DisparoInvalidRow,
  disparoInvalidRows,
  renderDisparo,
} from "@balcao/contract";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/http";
import { toastSuccess } from "../../../lib/toast";
import { useCreateDisparos, useDialogChoices, useUpdateDisparoConnection } from "../api/disparos";
import { decodeCsv, previewCsv } from "../csv-preview";

/** Two different renderings of the message (spintax picks per row): what two customers would read. */
export function previewVariants(message: string, name: string): string[] {
  const first = renderDisparo(message, { name }, 1);
  for (let seed = 2; seed < 40; seed++) {
    const other = renderDisparo(message, { name }, seed);
    if (other !== first) return [first, other];
  }
  return [first];
}

/** A 400 naming a row ("line.3.number": ["Invalid number"]) said in the user's words. */
function rowError(err: unknown, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (err instanceof ApiError && err.fields) {
    const [key, messages] = Object.entries(err.fields)[0] ?? [];
    if (key) {
      const m = /^(line|rows|contacts)\.(\d+)\.(\w+)$/.exec(key);
      // CSV lines are counted from 1 as a spreadsheet shows them; JSON rows and contacts from 0
      const where = m
        ? `${t("disparos.dialog.line", { n: m[1] === "line" ? Number(m[2]) : Number(m[2]) + 1 })}, ${t(`disparos.dialog.fields.${m[3]}`, { defaultValue: m[3] })}`
        : t(`disparos.dialog.fields.${key}`, { defaultValue: key });
      const message = (messages ?? []).map((x) => t(`disparos.dialog.reasons.${x}`, { defaultValue: x })).join(", ");
      return t("disparos.dialog.rowError", { where, message });
    }
  }
  return err instanceof ApiError ? t(`errors.${err.code}`, { defaultValue: err.code ?? String(err.status) }) : String(err);
}

/** How many invalid rows the dialog lists (the rest are counted). */
const INVALID_SHOWN = 20;

/** One invalid row in the user's words: "Linha 4, Número: Número inválido". */
export function invalidRowText(r: DisparoInvalidRow, t: (k: string, o?: Record<string, unknown>) => string): string {
  const where = `${t("disparos.dialog.line", { n: r.line })}, ${t(`disparos.dialog.fields.${r.field}`, { defaultValue: r.field })}`;
  return t("disparos.dialog.rowError", { where, message: t(`disparos.dialog.reasons.${r.reason}`, { defaultValue: r.reason }) });
}

/**
 * 'Novo disparo': the connection, the recipients (a CSV of number,message,url,nome, its first rows
 * previewed as they will be sent; or contacts by tag), the message with a preview of two variants, optional media, when to start, and the suggested
 * sending hours (08:00–20:00 São Paulo) set on the connection.
 */
export function NewDisparoDialog({ open, onClose, connections }: { open: boolean; onClose: () => void; connections: DisparoConnection[] }) {
  const { t } = useTranslation();
  const fullScreen = useMediaQuery(useTheme().breakpoints.down("sm"));
  const choices = useDialogChoices(open);
  const create = useCreateDisparos();
  const setPace = useUpdateDisparoConnection();
  const [whatsappId, setWhatsappId] = useState<number | "">("");
  const [source, setSource] = useState<"csv" | "tags">("csv");
  const [csv, setCsv] = useState<File | null>(null);
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [message, setMessage] = useState("");
  const [media, setMedia] = useState<File | null>(null);
  const [start, setStart] = useState("");
  const [hours, setHours] = useState(true);
  const [error, setError] = useState("");
  /** the rows the server refused: listed, and 'Enviar só as válidas' sends the rest (skipInvalid) */
  const [refused, setInvalid] = useState<{ rows: DisparoInvalidRow[]; csv: File | null } | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  // a refused request's reason shows where the eye is (the end of a long form on a phone)
  useEffect(() => {
    if (error) errorRef.current?.scrollIntoView({ block: "nearest" });
  }, [error]);

  useEffect(() => {
    if (!open) return;
    setError("");
    if (whatsappId === "" && choices.connections.length) {
      setWhatsappId((choices.connections.find((w) => w.isDefault) ?? choices.connections[0]).id);
    }
  }, [open, choices.connections, whatsappId]);
  const current = connections.find((c) => c.whatsappId === whatsappId);
  useEffect(() => {
    if (current) setHours(current.windowStart !== "" || current.pending === 0);
  }, [current]);

  // the chosen CSV read once; its first rows previewed as the server will render them
  const [csvText, setCsvText] = useState<string | null>(null);
  useEffect(() => {
    setCsvText(null);
    if (!csv) return;
    let live = true;
    void csv.arrayBuffer().then((bytes) => {
      if (live) setCsvText(decodeCsv(bytes));
    });
    return () => {
      live = false;
    };
  }, [csv]);
  const csvRows = useMemo(() => (source === "csv" && csvText !== null ? previewCsv(csvText, message) : null), [source, csvText, message]);
  const variants = useMemo(
    () => (message.trim() && !csvRows ? previewVariants(message, t("disparos.dialog.previewName")) : []),
    [message, csvRows, t],
  );
  const hasLink = /https?:\/\//i.test(message);
  const ready = whatsappId !== "" && (source === "csv" ? !!csv : tagIds.length > 0) && (source === "csv" || !!message.trim() || !!media);

  // the list holds for the file it was found in: another file is checked again
  const invalid = refused && refused.csv === csv ? refused.rows : null;

  const submit = async (skipInvalid = false) => {
    if (whatsappId === "") return;
    setError("");
    setInvalid(null);
    try {
      const wantWindow = hours ? DISPARO_SUGGESTED_WINDOW : { start: "", end: "" };
      if (current && (current.windowStart !== wantWindow.start || current.windowEnd !== wantWindow.end)) {
        await setPace.mutateAsync({ id: whatsappId, body: { windowStart: wantWindow.start, windowEnd: wantWindow.end } });
      }
      const form = new FormData();
      form.set("whatsappId", String(whatsappId));
      form.set("message", message);
      if (start) form.set("startAt", new Date(start).toISOString());
      if (source === "csv" && csv) form.set("file", csv, csv.name);
      if (source === "tags") form.set("tagIds", tagIds.join(","));
      if (media) form.set("media", media, media.name);
      if (skipInvalid) form.set("skipInvalid", "true");
      const res = await create.mutateAsync(form);
      toastSuccess(
        [
          res.cancelled
            ? t("disparos.dialog.createdCancelled", { count: res.created, cancelled: res.cancelled })
            : t("disparos.dialog.created", { count: res.created }),
          res.skipped ? t("disparos.dialog.skipped", { count: res.skipped }) : "",
        ]
          .filter(Boolean)
          .join(" "),
      );
      setCsv(null);
      setMedia(null);
      setMessage("");
      setStart("");
      onClose();
    } catch (err) {
      const rows = err instanceof ApiError && err.code === "ERR_VALIDATION" ? disparoInvalidRows(err.fields) : [];
      if (rows.length) setInvalid({ rows, csv });
      else setError(rowError(err, t));
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="new-disparo-title">
      <DialogTitle id="new-disparo-title">{t("disparos.dialog.title")}</DialogTitle>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <TextField
          select
          label={t("disparos.dialog.connection")}
          value={whatsappId}
          onChange={(e) => setWhatsappId(Number(e.target.value))}
          size="small"
          slotProps={{ htmlInput: { "data-testid": "disparo-connection-select" } }}
        >
          {choices.connections.map((w) => (
            <MenuItem key={w.id} value={w.id}>
              {w.name}
            </MenuItem>
          ))}
        </TextField>

        <Box>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
            {t("disparos.dialog.source")}
          </Typography>
          <ToggleButtonGroup size="small" exclusive value={source} onChange={(_e, v) => v && setSource(v)}>
            <ToggleButton value="csv">{t("disparos.dialog.csv")}</ToggleButton>
            <ToggleButton value="tags">{t("disparos.dialog.tags")}</ToggleButton>
          </ToggleButtonGroup>
        </Box>
        {source === "csv" ? (
          <Box>
            <Button variant="outlined" component="label" size="small">
              {t("disparos.dialog.chooseFile")}
              <input
                hidden
                type="file"
                accept=".csv,text/csv,text/plain"
                data-testid="disparo-csv-input"
                onChange={(e) => setCsv(e.target.files?.[0] ?? null)}
              />
            </Button>
            {csv && (
              <Typography component="span" variant="body2" sx={{ ml: 1 }}>
                {csv.name}
              </Typography>
            )}
            <FormHelperText>{t("disparos.dialog.csvHelp")}</FormHelperText>
            {csvRows && (
              <Paper variant="outlined" sx={{ p: 1.5, mt: 1 }} data-testid="disparo-csv-preview">
                <Typography variant="caption" color="text.secondary">
                  {csvRows.total > csvRows.rows.length
                    ? t("disparos.dialog.csvPreviewFirst", { count: csvRows.total, shown: csvRows.rows.length })
                    : t("disparos.dialog.csvPreview", { count: csvRows.total })}
                </Typography>
                {csvRows.rows.map((r) => (
                  <Box key={r.label} sx={{ mt: 1 }} data-testid="disparo-csv-preview-row">
                    <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: "anywhere" }}>
                      {r.name ? `${r.number} · ${r.name}` : r.number}
                    </Typography>
                    <Typography
                      variant="body2"
                      sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", borderLeft: 3, borderColor: "success.main", pl: 1 }}
                    >
                      {r.text || <em>{t("disparos.dialog.csvPreviewEmpty")}</em>}
                    </Typography>
                    {r.url && (
                      <Typography variant="caption" color="text.secondary" component="div" sx={{ pl: 1.4, overflowWrap: "anywhere" }}>
                        {r.url}
                      </Typography>
                    )}
                  </Box>
                ))}
                {!csvRows.hasNames && /\{\s*(nome|primeiro_nome)\s*\}/i.test(message) && (
                  <FormHelperText sx={{ mt: 1 }}>{t("disparos.dialog.csvNoNames")}</FormHelperText>
                )}
              </Paper>
            )}
          </Box>
        ) : (
          <TextField
            select
            size="small"
            label={t("disparos.dialog.tagsLabel")}
            value={tagIds}
            onChange={(e) => setTagIds(typeof e.target.value === "string" ? [] : (e.target.value as unknown as number[]))}
            slotProps={{ select: { multiple: true } }}
          >
            {choices.tags.map((tag) => (
              <MenuItem key={tag.id} value={tag.id}>
                {tag.name}
              </MenuItem>
            ))}
          </TextField>
        )}

        <TextField
          label={t("disparos.dialog.message")}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          multiline
          minRows={3}
          helperText={t("disparos.dialog.messageHelp")}
          slotProps={{ htmlInput: { "data-testid": "disparo-message", maxLength: 4096 } }}
        />
        {variants.length > 0 && (
          <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="disparo-preview">
            <Typography variant="caption" color="text.secondary">
              {t(variants.length > 1 ? "disparos.dialog.previewTitle" : "disparos.dialog.previewOne")}
            </Typography>
            {variants.map((v) => (
              <Typography
                key={v}
                variant="body2"
                sx={{ mt: 0.5, whiteSpace: "pre-wrap", borderLeft: 3, borderColor: "success.main", pl: 1 }}
              >
                {v}
              </Typography>
            ))}
          </Paper>
        )}
        {hasLink && <Alert severity="warning">{t("disparos.dialog.links")}</Alert>}

        <Box>
          <Button variant="outlined" component="label" size="small">
            {t("disparos.dialog.chooseMedia")}
            <input
              hidden
              type="file"
              accept="image/*,video/*,audio/*,application/pdf"
              onChange={(e) => setMedia(e.target.files?.[0] ?? null)}
            />
          </Button>
          <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
            {media ? media.name : t("disparos.dialog.media")}
          </Typography>
        </Box>

        <TextField
          type="datetime-local"
          size="small"
          label={t("disparos.dialog.start")}
          value={start}
          onChange={(e) => setStart(e.target.value)}
          helperText={t("disparos.dialog.startHelp")}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Box>
          <FormControlLabel
            control={<Checkbox checked={hours} onChange={(e) => setHours(e.target.checked)} />}
            label={t("disparos.dialog.hours")}
          />
          <FormHelperText sx={{ mt: -0.5 }}>{t("disparos.dialog.hoursHelp")}</FormHelperText>
        </Box>
        {error && (
          <Alert severity="error" data-testid="disparo-error" ref={errorRef}>
            {error}
          </Alert>
        )}
        {invalid && (
          <Alert
            severity="warning"
            data-testid="disparo-invalid"
            action={
              <Button
                color="inherit"
                size="small"
                disabled={create.isPending}
                onClick={() => void submit(true)}
                data-testid="disparo-send-valid"
              >
                {t("disparos.dialog.sendValid")}
              </Button>
            }
          >
            {t("disparos.dialog.invalidTitle", { count: invalid.length })}
            <Box component="ul" sx={{ m: 0, pl: 2.5, maxHeight: 160, overflowY: "auto" }}>
              {invalid.slice(0, INVALID_SHOWN).map((r) => (
                <li key={`${r.kind}.${r.line}.${r.field}`}>{invalidRowText(r, t)}</li>
              ))}
              {invalid.length > INVALID_SHOWN && <li>{t("disparos.dialog.invalidMore", { count: invalid.length - INVALID_SHOWN })}</li>}
            </Box>
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("disparos.dialog.cancel")}</Button>
        <Button variant="contained" disabled={!ready || create.isPending || setPace.isPending} onClick={() => void submit()}>
          {t("disparos.dialog.submit")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
