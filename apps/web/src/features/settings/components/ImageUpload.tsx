import type { SettingKey, UploadAnswer } from "@balcao/contract";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { enqueueSnackbar } from "notistack";
import { errorMessage } from "../../../api/errors";
import { ApiError, http } from "../../../api/http";
import i18n from "../../../locales";
import { toastError, toastSuccess } from "../../../lib/toast";
import { closeGateOn, useMergeSetting, useSettings, useUpdateSetting } from "../api/get-settings";
import { gateHeaders } from "../api/settings-token";

/**
 * One image of the branding or of the e-mails: its preview, 'Enviar imagem' and 'Remover'.
 * `endpoint` is POST /upload/{key} (field `file`, sets the setting itself) or POST /email/upload
 * (field `image`, answers a url the screen then saves in `settingKey`).
 */
export function ImageUpload({
  settingKey,
  endpoint,
  field,
  accept,
}: {
  settingKey: SettingKey;
  endpoint: string;
  field: "file" | "image";
  accept: string;
}) {
  const { t } = useTranslation();
  const { raw } = useSettings();
  const merge = useMergeSetting();
  const update = useUpdateSetting();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const url = raw(settingKey);

  const send = async (file: File) => {
    setBusy(true);
    try {
      const form = new FormData();
      form.append(field, file);
      const answer = await http.request<UploadAnswer>("POST", endpoint, { form, headers: gateHeaders() });
      if (field === "image") await update.mutateAsync({ key: settingKey, value: answer.url });
      else merge({ key: settingKey, value: answer.url });
      toastSuccess(t("settings.uploaded"));
    } catch (err) {
      closeGateOn(err);
      // 'Upload falhou', with the server's reason when it gave one (a refused type, too large)
      const reason =
        err instanceof ApiError ? (err.fields?.file?.[0] ?? errorMessage(err, (k) => (i18n.exists(k) ? t(k) : undefined))) : "";
      enqueueSnackbar(reason ? `${t("settings.uploadFailed")} ${reason}` : t("settings.uploadFailed"), { variant: "error" });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: "center", flexWrap: "wrap" }} data-testid={`image-${settingKey}`}>
      <input
        ref={input}
        type="file"
        hidden
        accept={accept}
        data-testid={`upload-${settingKey}`}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void send(f);
        }}
      />
      <Box
        sx={{
          width: { xs: 96, sm: 120 },
          height: 64,
          flexShrink: 0,
          borderRadius: 1,
          border: 1,
          borderColor: "divider",
          display: "flex",
          alignItems: "center",
          justifyContent: "center",
          bgcolor: "action.hover",
          overflow: "hidden",
        }}
      >
        {url ? (
          <Box
            component="img"
            src={url}
            alt={t(`settings.fields.${settingKey}`)}
            sx={{ maxWidth: "100%", maxHeight: "100%", objectFit: "contain" }}
          />
        ) : (
          <Typography variant="caption" color="text.secondary">
            {t("settings.noImage")}
          </Typography>
        )}
      </Box>
      <Box sx={{ flex: "1 1 160px", minWidth: 0 }}>
        <Typography variant="subtitle2">{t(`settings.fields.${settingKey}`)}</Typography>
        <Typography variant="caption" color="text.secondary">
          {t(field === "image" ? "settings.mailImageHelp" : settingKey === "favicon" ? "settings.faviconHelp" : "settings.logoHelp")}
        </Typography>
      </Box>
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" disabled={busy} onClick={() => input.current?.click()}>
          {t("settings.upload")}
        </Button>
        {url && (
          <Button
            color="inherit"
            disabled={busy || update.isPending}
            onClick={() => update.mutate({ key: settingKey, value: "" }, { onError: toastError })}
          >
            {t("settings.remove")}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
