import type { Whatsapp } from "@balcao/contract";
import Box from "@mui/material/Box";
import FormHelperText from "@mui/material/FormHelperText";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Typography from "@mui/material/Typography";
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
      <Controller
        control={control}
        name="type"
        render={({ field }) => (
          <FormControl>
            <FormLabel id="connection-channel">{t("cloud.channelQuestion")}</FormLabel>
            <RadioGroup aria-labelledby="connection-channel" {...field} value={field.value ?? "baileys"}>
              {(["baileys", "cloud", ...(showSimulator ? ["simulator"] : [])] as const).map((v) => (
                <FormControlLabel
                  key={v}
                  value={v}
                  control={<Radio />}
                  label={
                    <Box sx={{ py: 0.5 }}>
                      <Typography variant="body2" sx={{ fontWeight: 600 }}>
                        {t(`cloud.channels.${v}`)}
                      </Typography>
                      <Typography variant="caption" color="text.secondary">
                        {t(`cloud.channelHelp.${v}`)}
                      </Typography>
                    </Box>
                  }
                />
              ))}
            </RadioGroup>
            {current && <FormHelperText>{t("connections.form.typeChangeHelp")}</FormHelperText>}
          </FormControl>
        )}
      />
      <Box>
        <SwitchField control={control} name="isDefault" label={t("connections.form.isDefault")} />
        <FormHelperText sx={{ mt: -0.5 }}>
          {current?.isDefault ? t("connections.form.isDefaultLockedHelp") : t("connections.form.isDefaultHelp")}
        </FormHelperText>
      </Box>
    </>
  );
}
