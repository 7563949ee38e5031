import { type Queue, queueBody } from "@balcao/contract";
import { zodResolver } from "@hookform/resolvers/zod";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormDialog } from "../../../components/FormDialog";
import { showSaveError } from "../../../lib/forms";
import { toastSuccess } from "../../../lib/toast";
import { useSaveQueue } from "../api/queues";

type Values = z.input<typeof queueBody>;
type Output = z.output<typeof queueBody>;

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

const toValues = (q?: Queue | null): Values => ({ name: q?.name ?? "", color: q?.color ?? "", greetingMessage: q?.greetingMessage ?? "" });

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
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, Output>({ resolver: zodResolver(queueBody), defaultValues: toValues(queue) });

  useEffect(() => {
    if (open) reset(toValues(queue));
  }, [open, queue, reset]);

  const onSubmit = handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ id: queue?.id, body });
      toastSuccess(t("queues.saved"));
      onClose();
    } catch (err) {
      showSaveError(err, setError);
    }
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      onSubmit={onSubmit}
      submitting={isSubmitting}
      title={queue ? t("queues.form.editTitle") : t("queues.form.addTitle")}
    >
      <TextField
        label={t("queues.form.name")}
        autoFocus
        {...register("name")}
        error={Boolean(errors.name)}
        helperText={errors.name?.message}
      />
      <Controller
        control={control}
        name="color"
        render={({ field }) => (
          <ColorField value={field.value} onChange={field.onChange} error={Boolean(errors.color)} helperText={errors.color?.message} />
        )}
      />
      <TextField
        label={t("queues.form.greeting")}
        multiline
        minRows={3}
        maxRows={8}
        {...register("greetingMessage")}
        error={Boolean(errors.greetingMessage)}
        helperText={errors.greetingMessage?.message}
      />
    </FormDialog>
  );
}
