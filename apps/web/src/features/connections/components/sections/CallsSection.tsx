import Box from "@mui/material/Box";
import TextField from "@mui/material/TextField";
import { useFormState, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { ConnectionFormApi } from "../connection-form";
import { SectionTitle, SwitchField } from "./parts";

/** Chamadas: accept calls, or refuse them with a message. */
export function CallsSection({ form: { register, control } }: { form: ConnectionFormApi }) {
  const { t } = useTranslation();
  const { errors } = useFormState({ control });
  const acceptCalls = useWatch({ control, name: "acceptCalls" });
  return (
    <>
      <SectionTitle title={t("connections.form.calls")} />
      <Box>
        <SwitchField control={control} name="acceptCalls" label={t("connections.form.acceptCalls")} />
      </Box>
      {!acceptCalls && (
        <TextField
          label={t("connections.form.callRefuseMessage")}
          multiline
          minRows={2}
          maxRows={6}
          {...register("callRefuseMessage")}
          error={Boolean(errors.callRefuseMessage)}
          helperText={errors.callRefuseMessage?.message ?? t("connections.form.callRefuseHelp")}
        />
      )}
    </>
  );
}
