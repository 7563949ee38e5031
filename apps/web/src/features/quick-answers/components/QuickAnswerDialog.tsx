import { type QuickAnswer, quickAnswerBody } from "@balcao/contract";
import { zodResolver } from "@hookform/resolvers/zod";
import TextField from "@mui/material/TextField";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormDialog } from "../../../components/FormDialog";
import { showSaveError } from "../../../lib/forms";
import { toastSuccess } from "../../../lib/toast";
import { useSaveQuickAnswer } from "../api/quick-answers";

type Values = z.input<typeof quickAnswerBody>;
type Output = z.output<typeof quickAnswerBody>;
const toValues = (q?: QuickAnswer | null): Values => ({ shortcut: q?.shortcut ?? "", message: q?.message ?? "" });

export function QuickAnswerDialog({ open, quickAnswer, onClose }: { open: boolean; quickAnswer: QuickAnswer | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveQuickAnswer();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, Output>({ resolver: zodResolver(quickAnswerBody), defaultValues: toValues(quickAnswer) });

  useEffect(() => {
    if (open) reset(toValues(quickAnswer));
  }, [open, quickAnswer, reset]);

  const onSubmit = handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ id: quickAnswer?.id, body });
      toastSuccess(t("quickAnswers.saved"));
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
      title={quickAnswer ? t("quickAnswers.form.editTitle") : t("quickAnswers.form.addTitle")}
    >
      <TextField
        label={t("quickAnswers.form.shortcut")}
        autoFocus
        {...register("shortcut")}
        error={Boolean(errors.shortcut)}
        helperText={errors.shortcut?.message}
      />
      <TextField
        label={t("quickAnswers.form.message")}
        multiline
        minRows={4}
        maxRows={12}
        {...register("message")}
        error={Boolean(errors.message)}
        helperText={errors.message?.message}
      />
    </FormDialog>
  );
}
