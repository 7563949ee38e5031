import { SETTING_CHOICES } from "@balcao/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { http } from "../../../../api/http";
import { toastError, toastSuccess } from "../../../../lib/toast";
import { closeGateOn, useSettings } from "../../api/get-settings";
import { gateHeaders } from "../../api/settings-token";
import { ImageUpload } from "../ImageUpload";
import { SettingsSection } from "../SettingsForm";

/** userApiToken: read only; 'Gerar novo' shows a new one once (the server keeps only its hash). */
function ApiToken() {
  const { t } = useTranslation();
  const { has } = useSettings();
  const [shown, setShown] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const generate = async () => {
    setBusy(true);
    try {
      setShown((await http.request<{ token: string }>("POST", "/settings/userApiToken", { headers: gateHeaders() })).token);
    } catch (err) {
      closeGateOn(err);
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown ?? "");
      toastSuccess(t("settings.copied"));
    } catch {
      toastError(t("settings.copyFailed"));
    }
  };
  return (
    <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
      <TextField
        label={t("settings.fields.userApiToken")}
        value={has("userApiToken") ? t("settings.tokenSet") : t("settings.tokenUnset")}
        slotProps={{ input: { readOnly: true } }}
      />
      <Button variant="outlined" onClick={() => void generate()} disabled={busy} data-testid="generate-api-token" sx={{ flexShrink: 0 }}>
        {t("settings.generate")}
      </Button>
      <Dialog open={shown !== null} onClose={() => setShown(null)} fullWidth maxWidth="sm">
        <DialogTitle>{t("settings.newToken")}</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            {t("settings.newTokenOnce")}
          </Alert>
          <Typography sx={{ fontFamily: "monospace", wordBreak: "break-all" }} data-testid="new-api-token">
            {shown}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => void copy()}>{t("settings.copy")}</Button>
          <Button variant="contained" onClick={() => setShown(null)}>
            {t("settings.close")}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}

export function PixSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection
      id="pix"
      check={(value) => (value("pix") === "enabled" && !value("urlPix").trim() ? t("settings.urlEmpty") : undefined)}
      fields={[
        { key: "pix", kind: "switch" },
        { key: "urlPix", kind: "url", help: "settings.help.urlPix" },
        { key: "pixKey", kind: "text", help: "settings.help.pixKey" },
        { key: "pixKeyType", kind: "select", options: SETTING_CHOICES.pixKeyType ?? [] },
        { key: "pixMerchantName", kind: "text" },
        { key: "pixMerchantCity", kind: "text" },
        { key: "enableContract", kind: "switch" },
        { key: "urlContrato", kind: "url" },
        { key: "urlApi", kind: "url" },
        { key: "msgEnvioContrato", kind: "multiline", help: "settings.help.msgEnvioContrato" },
        { key: "msgConfirmacaoAssinatura", kind: "multiline", help: "settings.help.msgConfirmacaoAssinatura" },
      ]}
    >
      <ApiToken />
      {/* the contract's page: its background and watermark images */}
      <ImageUpload settingKey="mail_fundo_contrato" endpoint="/email/upload" field="image" accept="image/png,image/jpeg" />
      <ImageUpload settingKey="mail_marca_agua" endpoint="/email/upload" field="image" accept="image/png,image/jpeg" />
    </SettingsSection>
  );
}
