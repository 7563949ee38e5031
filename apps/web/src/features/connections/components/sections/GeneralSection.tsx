import type { Whatsapp } from "@balcao/contract";
import Box from "@mui/material/Box";
import FormHelperText from "@mui/material/FormHelperText";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { Controller, useFormState } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { ConnectionFormApi } from "../connection-form";
import { SwitchField } from "./parts";

/** Name, engine (with the simulator, or when editing) and 'padrão'. */
export function GeneralSection({
  form: { register, control },
  current,
  showSimulator,
}: {
  form: ConnectionFormApi;
  current: Whatsapp | null;
  showSimulator: boolean;
}) {
  const { t } = useTranslation();
  const { errors } = useFormState({ control });
  return (
    <>
      <TextField
        label={t("connections.form.name")}
        autoFocus
        {...register("name")}
        error={Boolean(errors.name)}
        helperText={errors.name?.message}
      />
      {(showSimulator || current) && (
        <Controller
          control={control}
          name="type"
          render={({ field }) => (
            <TextField
              select
              label={t("connections.form.type")}
              {...field}
              value={field.value ?? "baileys"}
              helperText={current ? t("connections.form.typeChangeHelp") : undefined}
            >
              <MenuItem value="baileys">{t("connections.form.types.baileys")}</MenuItem>
              {showSimulator && <MenuItem value="simulator">{t("connections.form.types.simulator")}</MenuItem>}
            </TextField>
          )}
        />
      )}
      <Box>
        <SwitchField control={control} name="isDefault" label={t("connections.form.isDefault")} />
        <FormHelperText sx={{ mt: -0.5 }}>
          {current?.isDefault ? t("connections.form.isDefaultLockedHelp") : t("connections.form.isDefaultHelp")}
        </FormHelperText>
      </Box>
    </>
  );
}
