import { type Contact, contactBody } from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useFieldArray } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormDialog } from "../../../components/FormDialog";
import { useEntityForm } from "../../../lib/form-dialog";
import { isAdmin, useAuth } from "../../auth";
import { useSaveContact } from "../api/contacts";
import { LgpdSection } from "./LgpdSection";

type Values = z.input<typeof contactBody>;

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
  const { user } = useAuth();
  const save = useSaveContact();
  const { form, dialogProps, field } = useEntityForm({
    open,
    entity: contact,
    toValues,
    schema: contactBody,
    save: (body) => save.mutateAsync({ id: contact?.id, body }),
    saved: t("contacts.saved"),
    onClose,
  });
  const extra = useFieldArray({ control: form.control, name: "extraInfo" });

  return (
    <FormDialog {...dialogProps} title={contact ? t("contacts.form.editTitle") : t("contacts.form.addTitle")}>
      <TextField label={t("contacts.form.name")} autoFocus {...field("name")} />
      <TextField
        label={t("contacts.form.number")}
        placeholder={t("contacts.form.numberPlaceholder")}
        inputMode="tel"
        {...field("number", t("contacts.form.numberHelp"))}
      />
      <TextField label={t("contacts.form.email")} type="email" {...field("email")} />
      <Typography variant="subtitle2" sx={{ pt: 1 }}>
        {t("contacts.form.extraInfo")}
      </Typography>
      {extra.fields.map((f, i) => (
        <Box key={f.id} sx={{ display: "flex", gap: 1, alignItems: "flex-start", flexWrap: { xs: "wrap", sm: "nowrap" } }}>
          <TextField label={t("contacts.form.extraName")} {...field(`extraInfo.${i}.name`)} sx={{ flex: { xs: "1 1 100%", sm: 1 } }} />
          <TextField label={t("contacts.form.extraValue")} {...field(`extraInfo.${i}.value`)} sx={{ flex: 1 }} />
          <IconButton aria-label={t("common.remove")} onClick={() => extra.remove(i)} sx={{ mt: 0.25 }}>
            <DeleteOutlineIcon />
          </IconButton>
        </Box>
      ))}
      <Button startIcon={<AddIcon />} onClick={() => extra.append({ name: "", value: "" })} sx={{ alignSelf: "flex-start" }}>
        {t("contacts.form.addExtra")}
      </Button>
      {contact && isAdmin(user) && <LgpdSection contact={contact} onErased={onClose} />}
    </FormDialog>
  );
}
