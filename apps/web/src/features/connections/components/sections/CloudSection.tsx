import type { Whatsapp } from "@balcao/contract";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import { Controller, useFormState } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useTemplates } from "../../../cloud";
import { usePublicUrl } from "../../../settings";
import { PublicUrlWarnings } from "../../../../components/PublicUrlWarnings";
import { toastError, toastSuccess } from "../../../../lib/toast";
import { type ConnectionFormApi, newVerifyToken } from "../connection-form";
import { SectionTitle } from "./parts";

async function copy(text: string, ok: string, failed: string) {
  try {
    await navigator.clipboard.writeText(text);
    toastSuccess(ok);
  } catch {
    toastError(failed);
  }
}

/**
 * The Cloud API's fields: the number's and the business account's ids, the access token and the
 * app secret (write-only: blank keeps the saved ones), the webhook URL and verify token to paste
 * into Meta's panel, and the template automatic sends use outside the 24 h window.
 */
export function CloudSection({ form: { register, control, setValue }, current }: { form: ConnectionFormApi; current: Whatsapp | null }) {
  const { t } = useTranslation();
  const { errors } = useFormState({ control });
  const e = (errors.cloud ?? {}) as Record<string, { message?: string } | undefined>;
  // the public address (Configurações or PUBLIC_URL), else this page's: Meta must reach it over HTTPS
  const publicUrl = usePublicUrl();
  const webhookUrl = publicUrl.webhookUrl;
  const templates = useTemplates(current?.id, current?.type === "cloud" && current.cloud?.hasAccessToken === true);
  const copyButton = (text: string) => (
    <InputAdornment position="end">
      <Tooltip title={t("cloud.copy")}>
        <IconButton aria-label={t("cloud.copy")} edge="end" onClick={() => copy(text, t("cloud.copied"), t("connections.form.copyFailed"))}>
          <ContentCopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </InputAdornment>
  );
  return (
    <>
      <SectionTitle title={t("cloud.settings")} />
      <TextField
        label={t("cloud.phoneNumberId")}
        inputMode="numeric"
        {...register("cloud.phoneNumberId")}
        error={Boolean(e.phoneNumberId)}
        helperText={e.phoneNumberId?.message}
      />
      <TextField
        label={t("cloud.businessAccountId")}
        inputMode="numeric"
        {...register("cloud.businessAccountId")}
        error={Boolean(e.businessAccountId)}
        helperText={e.businessAccountId?.message}
      />
      <TextField
        label={t("cloud.accessToken")}
        type="password"
        autoComplete="off"
        {...register("cloud.accessToken")}
        error={Boolean(e.accessToken)}
        helperText={e.accessToken?.message ?? (current?.cloud?.hasAccessToken ? t("cloud.secretKept") : undefined)}
      />
      <TextField
        label={t("cloud.appSecret")}
        type="password"
        autoComplete="off"
        {...register("cloud.appSecret")}
        error={Boolean(e.appSecret)}
        helperText={e.appSecret?.message ?? (current?.cloud?.hasAppSecret ? t("cloud.secretKept") : undefined)}
      />
      <TextField
        label={t("cloud.webhookUrl")}
        value={webhookUrl}
        slotProps={{ input: { readOnly: true, endAdornment: copyButton(webhookUrl) } }}
        helperText={t("cloud.webhookHelp")}
      />
      <PublicUrlWarnings warnings={publicUrl.warnings} />
      <Controller
        control={control}
        name="cloud.verifyToken"
        render={({ field }) => (
          <TextField
            label={t("cloud.verifyToken")}
            {...field}
            error={Boolean(e.verifyToken)}
            helperText={e.verifyToken?.message ?? t("cloud.verifyTokenHelp")}
            slotProps={{
              input: {
                endAdornment: (
                  <>
                    <Tooltip title={t("cloud.newVerifyToken")}>
                      <IconButton
                        aria-label={t("cloud.newVerifyToken")}
                        onClick={() => setValue("cloud.verifyToken", newVerifyToken(), { shouldDirty: true })}
                      >
                        <AutorenewIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    {copyButton(field.value ?? "")}
                  </>
                ),
              },
            }}
          />
        )}
      />
      {current?.type === "cloud" && (
        <Controller
          control={control}
          name="cloud.defaultTemplate"
          render={({ field }) => (
            <TextField select label={t("cloud.defaultTemplate")} {...field} helperText={t("cloud.defaultTemplateHelp")}>
              <MenuItem value="">{t("cloud.noDefaultTemplate")}</MenuItem>
              {field.value && !templates.data?.templates.some((x) => `${x.name}|${x.language}` === field.value) && (
                <MenuItem value={field.value}>{field.value.replace("|", " · ")}</MenuItem>
              )}
              {(templates.data?.templates ?? []).map((x) => (
                <MenuItem key={`${x.name}|${x.language}`} value={`${x.name}|${x.language}`}>
                  {x.name} · {x.language}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
    </>
  );
}
