import { PROFILES, type User, passwordField, userCreateBody } from "@balcao/contract";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useMemo } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { FormDialog } from "../../../components/FormDialog";
import { useEntityForm } from "../../../lib/form-dialog";
import { useQueues } from "../../queues/api/queues";
import { useSaveUser } from "../api/users";

/** Editing keeps the password when the field is left empty. */
const userEditForm = userCreateBody.extend({ password: z.union([z.literal(""), passwordField]) });
type Values = z.input<typeof userEditForm>;

const toValues = (u?: User | null): Values => ({
  name: u?.name ?? "",
  email: u?.email ?? "",
  password: "",
  profile: u?.profile ?? "user",
  queueIds: u?.queues.map((q) => q.id) ?? [],
});

export function UserDialog({ open, user, onClose }: { open: boolean; user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveUser();
  const queues = useQueues();
  const schema = useMemo(() => (user ? userEditForm : userCreateBody), [user]);
  const { form, errors, dialogProps, field } = useEntityForm({
    open,
    entity: user,
    toValues,
    schema: schema as typeof userEditForm,
    // An empty password on edit means "keep it": it is not sent.
    save: (values) =>
      save.mutateAsync({ id: user?.id, body: user && values.password === "" ? { ...values, password: undefined } : values }),
    saved: t("users.saved"),
    onClose,
  });

  const queueName = (id: number) => queues.data?.find((q) => q.id === id);

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
      <Controller
        control={form.control}
        name="profile"
        render={({ field }) => (
          <TextField select label={t("users.form.profile")} {...field} value={field.value ?? "user"} error={Boolean(errors.profile)}>
            {PROFILES.map((p) => (
              <MenuItem key={p} value={p}>
                {t(`users.profiles.${p}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={form.control}
        name="queueIds"
        render={({ field }) => (
          <TextField
            select
            label={t("users.form.queues")}
            value={field.value ?? []}
            onChange={(e) => field.onChange(e.target.value as unknown as number[])}
            onBlur={field.onBlur}
            slotProps={{
              select: {
                multiple: true,
                renderValue: (selected) => (
                  <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
                    {(selected as number[]).map((id) => {
                      const q = queueName(id);
                      return <Chip key={id} size="small" label={q?.name ?? id} sx={{ bgcolor: q?.color, color: "#fff" }} />;
                    })}
                  </Box>
                ),
              },
            }}
          >
            {(queues.data ?? []).map((q) => (
              <MenuItem key={q.id} value={q.id}>
                <Box
                  component="span"
                  sx={{ width: 12, height: 12, borderRadius: "50%", bgcolor: q.color, mr: 1, display: "inline-block" }}
                />
                {q.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
    </FormDialog>
  );
}
