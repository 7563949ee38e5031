import type { Whatsapp } from "@balcao/contract";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import TextField from "@mui/material/TextField";
import { useFormState, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { type ConnectionFormApi, typebotIncomplete } from "../connection-form";
import { SectionTitle, SwitchField } from "./parts";

/** Typebot: the bot's address, flow, key (write-only), session expiry, pace and words. */
export function TypebotSection({ form: { register, control }, current }: { form: ConnectionFormApi; current: Whatsapp | null }) {
  const { t } = useTranslation();
  const { errors } = useFormState({ control });
  const bot = useWatch({ control, name: "typebot" });
  const incomplete = typebotIncomplete(bot);
  return (
    <>
      <SectionTitle title={t("connections.form.typebot")} />
      <Box>
        <SwitchField control={control} name="typebot.enabled" label={t("connections.form.typebotEnabled")} />
      </Box>
      <TextField
        label={t("connections.form.baseUrl")}
        placeholder="https://typebot.example.com"
        type="url"
        {...register("typebot.baseUrl")}
        required={bot.enabled}
        error={Boolean(errors.typebot?.baseUrl)}
        helperText={errors.typebot?.baseUrl?.message ?? t("connections.form.baseUrlHelp")}
      />
      <TextField
        label={t("connections.form.slug")}
        {...register("typebot.slug")}
        required={bot.enabled}
        error={Boolean(errors.typebot?.slug)}
        helperText={errors.typebot?.slug?.message}
      />
      <TextField
        label={t("connections.form.apiKey")}
        type="password"
        autoComplete="new-password"
        {...register("typebot.apiKey")}
        error={Boolean(errors.typebot?.apiKey)}
        helperText={
          errors.typebot?.apiKey?.message ??
          (current?.typebot.hasApiKey ? t("connections.form.apiKeySet") : t("connections.form.apiKeyUnset"))
        }
        slotProps={{ formHelperText: { "data-testid": "typebot-key-hint" } as object }}
      />
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
        <TextField
          label={t("connections.form.expiryMinutes")}
          type="number"
          slotProps={{ htmlInput: { min: 0, max: 2880 } }}
          {...register("typebot.expiryMinutes")}
          error={Boolean(errors.typebot?.expiryMinutes)}
          helperText={errors.typebot?.expiryMinutes?.message ?? t("connections.form.expiryHelp")}
        />
        <TextField
          label={t("connections.form.delayMs")}
          type="number"
          slotProps={{ htmlInput: { min: 0, max: 10000, step: 100 } }}
          {...register("typebot.delayMs")}
          error={Boolean(errors.typebot?.delayMs)}
          helperText={errors.typebot?.delayMs?.message ?? t("connections.form.delayHelp")}
        />
      </Box>
      <TextField
        label={t("connections.form.endKeyword")}
        {...register("typebot.endKeyword")}
        error={Boolean(errors.typebot?.endKeyword)}
        helperText={errors.typebot?.endKeyword?.message ?? t("connections.form.endKeywordHelp")}
      />
      <TextField
        label={t("connections.form.unknownMessage")}
        multiline
        minRows={2}
        {...register("typebot.unknownMessage")}
        error={Boolean(errors.typebot?.unknownMessage)}
        helperText={errors.typebot?.unknownMessage?.message ?? t("connections.form.unknownMessageHelp")}
      />
      {incomplete && (
        <Alert severity="info" data-testid="typebot-incomplete">
          {t("connections.form.typebotIncomplete")}
        </Alert>
      )}
    </>
  );
}
