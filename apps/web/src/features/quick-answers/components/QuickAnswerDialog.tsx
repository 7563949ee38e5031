import { type QuickAnswer, quickAnswerBody } from "@balcao/contract";
import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormDialog } from "../../../components/FormDialog";
import { useEntityForm } from "../../../lib/form-dialog";
import { useSaveQuickAnswer } from "../api/quick-answers";

type Values = z.input<typeof quickAnswerBody>;
const toValues = (q?: QuickAnswer | null): Values => ({ shortcut: q?.shortcut ?? "", message: q?.message ?? "" });

export function QuickAnswerDialog({ open, quickAnswer, onClose }: { open: boolean; quickAnswer: QuickAnswer | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveQuickAnswer();
  const { dialogProps, field } = useEntityForm({
    open,
    entity: quickAnswer,
    toValues,
    schema: quickAnswerBody,
    save: (body) => save.mutateAsync({ id: quickAnswer?.id, body }),
    saved: t("quickAnswers.saved"),
    onClose,
  });

  return (
    <FormDialog {...dialogProps} title={quickAnswer ? t("quickAnswers.form.editTitle") : t("quickAnswers.form.addTitle")}>
      <TextField label={t("quickAnswers.form.shortcut")} autoFocus {...field("shortcut")} />
      <TextField label={t("quickAnswers.form.message")} multiline minRows={4} maxRows={12} {...field("message")} />
    </FormDialog>
  );
}
