import { PROFILES, type User, passwordField, userCreateBody } from "@balcao/contract";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useMemo } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ColorMultiSelect } from "../../../components/ColorMultiSelect";
import { FormDialog } from "../../../components/FormDialog";
import { useEntityForm } from "../../../lib/form-dialog";
import { useAuth } from "../../auth";
import { useQueues } from "../../queues";
import { useSaveUser } from "../api/users";

/** Editing keeps the password when the field is left empty. */
export const userEditForm = userCreateBody.extend({
  password: z.union([z.literal(""), passwordField]),
  currentPassword: z.string().max(200),
});
type Values = z.input<typeof userEditForm>;

const toValues = (u?: User | null): Values => ({
  name: u?.name ?? "",
  email: u?.email ?? "",
  password: "",
  profile: u?.profile ?? "user",
  queueIds: u?.queues.map((q) => q.id) ?? [],
  currentPassword: "",
});

export function UserDialog({ open, user, onClose }: { open: boolean; user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queues = useQueues();
  const save = useSaveUser();
  const { user: me } = useAuth();
  // one's own password changes only with the current one (the server asks for it)
  const self = Boolean(user && me && user.id === me.id);
  const schema = useMemo(() => (user ? userEditForm : userCreateBody), [user]);
  const { form, errors, dialogProps, field } = useEntityForm({
    open,
    entity: user,
    toValues,
    schema: schema as typeof userEditForm,
    // An empty password on edit means "keep it": it is not sent.
    save: ({ currentPassword, ...values }) =>
      save.mutateAsync({
        id: user?.id,
        body:
          user && values.password === ""
            ? { ...values, password: undefined }
            : { ...values, ...(self && currentPassword && { currentPassword }) },
      }),
    saved: t("users.saved"),
    onClose,
  });

  return (
    <FormDialog {...dialogProps} title={user ? t("users.form.editTitle") : t("users.form.addTitle")}>
      <TextField label={t("users.form.name")} autoFocus {...field("name")} />
      <TextField label={t("users.form.email")} type="email" {...field("email")} />
      <TextField
        label={t("users.form.password")}
        type="password"
        autoComplete="new-password"
        {...field("password", user ? t("users.form.passwordEditHelp") : undefined)}
      />
      {self && (
        <TextField label={t("users.form.currentPassword")} type="password" autoComplete="current-password" {...field("currentPassword")} />
      )}
      <Controller
        control={form.control}
        name="profile"
        render={({ field }) => (
          <TextField
            select
            label={t("users.form.profile")}
            {...field}
            value={field.value ?? "user"}
            error={Boolean(errors.profile)}
            // what the chosen profile may do, under the field; each option says it too
            helperText={t(`users.profileHelp.${field.value ?? "user"}`)}
            slotProps={{
              select: { renderValue: (v) => t(`users.profiles.${v as string}`) },
              formHelperText: { "data-testid": "profile-help" } as object,
            }}
          >
            {PROFILES.map((p) => (
              <MenuItem key={p} value={p} sx={{ whiteSpace: "normal", maxWidth: 480 }}>
                <ListItemText primary={t(`users.profiles.${p}`)} secondary={t(`users.profileHelp.${p}`)} />
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={form.control}
        name="queueIds"
        render={({ field }) => (
          <ColorMultiSelect
            label={t("users.form.queues")}
            options={queues.data ?? []}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
          />
        )}
      />
    </FormDialog>
  );
}
