import { type Queue, queueBody } from "@balcao/contract";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import InputAdornment from "@mui/material/InputAdornment";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormDialog } from "../../../components/FormDialog";
import { useEntityForm } from "../../../lib/form-dialog";
import { fieldError } from "../../../lib/fields";
import { useSaveQueue } from "../api/queues";

type Values = z.input<typeof queueBody>;

export const SWATCHES = [
  "#e53935",
  "#d81b60",
  "#8e24aa",
  "#5e35b1",
  "#3949ab",
  "#1e88e5",
  "#00897b",
  "#43a047",
  "#fdd835",
  "#fb8c00",
  "#6d4c41",
  "#546e7a",
];

const toValues = (q?: Queue | null): Values => ({
  name: q?.name ?? "",
  color: q?.color ?? "",
  greetingMessage: q?.greetingMessage ?? "",
  positionNotice: q?.positionNotice ?? { enabled: false, everyMinutes: 10 },
});

/** The waiting customer's position notice: on/off and at most once every N minutes. */
function PositionNoticeField({
  value,
  onChange,
}: {
  value: { enabled: boolean; everyMinutes: number };
  onChange: (v: { enabled: boolean; everyMinutes: number }) => void;
}) {
  const { t } = useTranslation();
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={value.enabled}
            onChange={(e) => onChange({ ...value, enabled: e.target.checked })}
            slotProps={{ input: { "aria-describedby": "position-notice-help" } }}
            data-testid="position-notice"
          />
        }
        label={t("queues.form.positionNotice")}
      />
      <Typography id="position-notice-help" variant="caption" color="text.secondary" component="p">
        {t("queues.form.positionNoticeHelp")}
      </Typography>
      {value.enabled && (
        <TextField
          type="number"
          label={t("queues.form.positionEvery")}
          value={value.everyMinutes}
          onChange={(e) => onChange({ ...value, everyMinutes: Math.max(1, Math.min(1440, Math.round(Number(e.target.value) || 1))) })}
          slotProps={{ htmlInput: { min: 1, max: 1440 } }}
          sx={{ mt: 1.5, maxWidth: 260 }}
          fullWidth
        />
      )}
    </Box>
  );
}

/** A colour: swatches, the browser's picker and the hex text. */
function ColorField({
  value,
  onChange,
  error,
  helperText,
}: {
  value: string;
  onChange: (v: string) => void;
  error: boolean;
  helperText?: string;
}) {
  const { t } = useTranslation();
  const valid = /^#[0-9a-f]{6}$/i.test(value);
  return (
    <Box>
      <TextField
        label={t("queues.form.color")}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={error}
        helperText={helperText}
        name="color"
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Box
                  component="input"
                  type="color"
                  aria-label={t("queues.form.pickColor")}
                  value={valid ? value : "#7c7c7c"}
                  onChange={(e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
                  sx={{ width: 28, height: 28, p: 0, border: 0, bgcolor: "transparent", cursor: "pointer" }}
                />
              </InputAdornment>
            ),
          },
        }}
      />
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, mt: 1 }} role="listbox" aria-label={t("queues.form.pickColor")}>
        {SWATCHES.map((c) => (
          <ButtonBase
            key={c}
            role="option"
            aria-selected={value.toLowerCase() === c}
            aria-label={c}
            onClick={() => onChange(c)}
            sx={{
              width: 28,
              height: 28,
              borderRadius: "50%",
              bgcolor: c,
              outline: value.toLowerCase() === c ? "3px solid" : "none",
              outlineColor: "text.primary",
              outlineOffset: 2,
            }}
          />
        ))}
      </Box>
    </Box>
  );
}

export function QueueDialog({ open, queue, onClose }: { open: boolean; queue: Queue | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveQueue();
  const { form, dialogProps, field } = useEntityForm({
    open,
    entity: queue,
    toValues,
    schema: queueBody,
    save: (body) => save.mutateAsync({ id: queue?.id, body }),
    saved: t("queues.saved"),
    onClose,
  });

  return (
    <FormDialog {...dialogProps} title={queue ? t("queues.form.editTitle") : t("queues.form.addTitle")}>
      <TextField label={t("queues.form.name")} autoFocus {...field("name")} />
      <Controller
        control={form.control}
        name="color"
        render={({ field: color }) => <ColorField value={color.value} onChange={color.onChange} {...fieldError(form, "color")} />}
      />
      <TextField label={t("queues.form.greeting")} multiline minRows={3} maxRows={8} {...field("greetingMessage")} />
      <Controller
        control={form.control}
        name="positionNotice"
        render={({ field: notice }) => (
          <PositionNoticeField value={notice.value ?? { enabled: false, everyMinutes: 10 }} onChange={notice.onChange} />
        )}
      />
    </FormDialog>
  );
}
