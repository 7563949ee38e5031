import { type Contact, contactBody } from "@balcao/contract";
import { zodResolver } from "@hookform/resolvers/zod";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useEffect } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormDialog } from "../../../components/FormDialog";
import { showSaveError } from "../../../lib/forms";
import { toastSuccess } from "../../../lib/toast";
import { useSaveContact } from "../api/contacts";

type Values = z.input<typeof contactBody>;
type Output = z.output<typeof contactBody>;

const toValues = (c?: Contact | null): Values => ({
  name: c?.name ?? "",
  number: c?.number ?? "",
  email: c?.email ?? "",
  extraInfo: c?.extraInfo.map((e) => ({ name: e.name, value: e.value })) ?? [],
  tagIds: c?.tags.map((t) => t.id) ?? [],
});

/** Add or edit a contact, with its extra information fields. */
export function ContactDialog({ open, contact, onClose }: { open: boolean; contact: Contact | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveContact();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, Output>({ resolver: zodResolver(contactBody), defaultValues: toValues(contact) });
  const extra = useFieldArray({ control, name: "extraInfo" });

  useEffect(() => {
    if (open) reset(toValues(contact));
  }, [open, contact, reset]);

  const onSubmit = handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ id: contact?.id, body });
      toastSuccess(t("contacts.saved"));
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
      title={contact ? t("contacts.form.editTitle") : t("contacts.form.addTitle")}
    >
      <TextField
        label={t("contacts.form.name")}
        autoFocus
        {...register("name")}
        error={Boolean(errors.name)}
        helperText={errors.name?.message}
      />
      <TextField
        label={t("contacts.form.number")}
        placeholder={t("contacts.form.numberPlaceholder")}
        inputMode="tel"
        {...register("number")}
        error={Boolean(errors.number)}
        helperText={errors.number?.message ?? t("contacts.form.numberHelp")}
      />
      <TextField
        label={t("contacts.form.email")}
        type="email"
        {...register("email")}
        error={Boolean(errors.email)}
        helperText={errors.email?.message}
      />
      <Typography variant="subtitle2" sx={{ pt: 1 }}>
        {t("contacts.form.extraInfo")}
      </Typography>
      {extra.fields.map((field, i) => (
        <Box key={field.id} sx={{ display: "flex", gap: 1, alignItems: "flex-start", flexWrap: { xs: "wrap", sm: "nowrap" } }}>
          <TextField
            label={t("contacts.form.extraName")}
            {...register(`extraInfo.${i}.name`)}
            error={Boolean(errors.extraInfo?.[i]?.name)}
            helperText={errors.extraInfo?.[i]?.name?.message}
            sx={{ flex: { xs: "1 1 100%", sm: 1 } }}
          />
          <TextField
            label={t("contacts.form.extraValue")}
            {...register(`extraInfo.${i}.value`)}
            error={Boolean(errors.extraInfo?.[i]?.value)}
            helperText={errors.extraInfo?.[i]?.value?.message}
            sx={{ flex: 1 }}
          />
          <IconButton aria-label={t("common.remove")} onClick={() => extra.remove(i)} sx={{ mt: 0.25 }}>
            <DeleteOutlineIcon />
          </IconButton>
        </Box>
      ))}
      <Button startIcon={<AddIcon />} onClick={() => extra.append({ name: "", value: "" })} sx={{ alignSelf: "flex-start" }}>
        {t("contacts.form.addExtra")}
      </Button>
    </FormDialog>
  );
}
