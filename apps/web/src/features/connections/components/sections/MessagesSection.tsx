import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { Controller, useFormState } from "react-hook-form";
import { Trans, useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { ColorMultiSelect } from "../../../../components/ColorMultiSelect";
import { useQueues } from "../../../queues";
import type { ConnectionFormApi } from "../connection-form";
import { SectionTitle } from "./parts";

/** Mensagens: the queues (setores) of the menu, the billing self-service, greeting and farewell. */
export function MessagesSection({ form: { register, control } }: { form: ConnectionFormApi }) {
  const { t } = useTranslation();
  const queues = useQueues();
  const { errors } = useFormState({ control });
  // a first day: the menu has nothing to offer until queues exist
  const noQueues = queues.isSuccess && queues.data.length === 0;
  return (
    <>
      <SectionTitle title={t("connections.form.messages")} />
      <Controller
        control={control}
        name="queueIds"
        render={({ field }) => (
          <ColorMultiSelect
            label={t("connections.form.queues")}
            options={queues.data ?? []}
            emptyText={t("connections.form.noQueuesYet")}
            helperText={
              noQueues ? (
                <span data-testid="queues-empty">
                  <Trans i18nKey="connections.form.noQueuesHelp" components={{ queues: <Link component={RouterLink} to="/queues" /> }} />
                </span>
              ) : undefined
            }
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
          />
        )}
      />
      <Controller
        control={control}
        name="selfService"
        render={({ field }) => (
          <TextField
            select
            label={t("connections.form.selfService")}
            {...field}
            value={field.value ?? "off"}
            helperText={t(`connections.form.selfServiceHelp.${field.value ?? "off"}`)}
            slotProps={{ select: { SelectDisplayProps: { "data-testid": "self-service" } as object } }}
          >
            <MenuItem value="off">{t("connections.form.selfServiceModes.off")}</MenuItem>
            <MenuItem value="before">{t("connections.form.selfServiceModes.before")}</MenuItem>
            <MenuItem value="after">{t("connections.form.selfServiceModes.after")}</MenuItem>
          </TextField>
        )}
      />
      <TextField
        label={t("connections.form.greeting")}
        multiline
        minRows={3}
        maxRows={8}
        {...register("greetingMessage")}
        error={Boolean(errors.greetingMessage)}
        helperText={errors.greetingMessage?.message ?? t("connections.form.greetingHelp")}
      />
      <TextField
        label={t("connections.form.farewell")}
        multiline
        minRows={2}
        maxRows={8}
        {...register("farewellMessage")}
        error={Boolean(errors.farewellMessage)}
        helperText={errors.farewellMessage?.message}
      />
    </>
  );
}
