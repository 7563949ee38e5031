import { WARMUP_DAYS, type Whatsapp } from "@balcao/contract";
import Box from "@mui/material/Box";
import FormHelperText from "@mui/material/FormHelperText";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { Controller, useFormState } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useConnections } from "../../api/connections";
import type { ConnectionFormApi } from "../connection-form";
import { SectionTitle, SwitchField } from "./parts";

/** Saúde do número: the backup connection, the daily cap of unsolicited sends, the warm-up. */
export function HealthSection({ form: { register, control }, current }: { form: ConnectionFormApi; current: Whatsapp | null }) {
  const { t } = useTranslation();
  const { errors } = useFormState({ control });
  const others = (useConnections().data ?? []).filter((w) => w.id !== current?.id);
  return (
    <>
      <SectionTitle title={t("connections.form.health")} />
      <Controller
        control={control}
        name="backupWhatsappId"
        render={({ field }) => (
          <TextField
            select
            label={t("connections.form.backup")}
            value={field.value ?? ""}
            onChange={(e) => field.onChange(e.target.value === "" ? null : Number(e.target.value))}
            onBlur={field.onBlur}
            error={Boolean(errors.backupWhatsappId)}
            helperText={errors.backupWhatsappId?.message ?? t("connections.form.backupHelp")}
            inputProps={{ "data-testid": "backup-select" }}
          >
            <MenuItem value="">{t("connections.form.backupNone")}</MenuItem>
            {others.map((w) => (
              <MenuItem key={w.id} value={w.id}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <TextField
        label={t("connections.form.dailyCap")}
        type="number"
        inputProps={{ min: 1, max: 100_000 }}
        {...register("dailyCap")}
        error={Boolean(errors.dailyCap)}
        helperText={
          errors.dailyCap?.message ??
          // while the warm-up lasts, today's limit (the figure the health panel and the disparos card show)
          (current && current.warmupDay !== null
            ? t("connections.form.dailyCapToday", { day: current.warmupDay, days: WARMUP_DAYS, cap: current.dailyCapToday })
            : t("connections.form.dailyCapHelp"))
        }
      />
      <Box>
        <SwitchField control={control} name="warmupEnabled" label={t("connections.form.warmup")} />
        <FormHelperText sx={{ mt: -0.5 }}>
          {t(current?.type === "simulator" ? "connections.form.warmupSimulator" : "connections.form.warmupHelp")}
        </FormHelperText>
      </Box>
    </>
  );
}
