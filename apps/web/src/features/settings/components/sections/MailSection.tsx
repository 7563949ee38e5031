import { type MailTestAnswer, SETTING_CHOICES } from "@balcao/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { http } from "../../../../api/http";
import { toastError } from "../../../../lib/toast";
import { useAuth } from "../../../auth";
import { closeGateOn } from "../../api/get-settings";
import { gateHeaders } from "../../api/settings-token";
import { ImageUpload } from "../ImageUpload";
import { SettingsSection } from "../SettingsForm";

/** 'Enviar e-mail de teste': through the saved settings; shows what the SMTP server answered or its error. */
function TestMail() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [to, setTo] = useState(user?.email ?? "");
  const [result, setResult] = useState<MailTestAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    setResult(null);
    try {
      setResult(await http.request<MailTestAnswer>("POST", "/email/test", { body: to ? { to } : {}, headers: gateHeaders() }));
    } catch (err) {
      closeGateOn(err);
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack spacing={1}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
        <TextField label={t("settings.testTo")} type="email" value={to} onChange={(e) => setTo(e.target.value)} />
        <Button variant="outlined" onClick={() => void send()} disabled={busy} sx={{ flexShrink: 0 }} data-testid="send-test-mail">
          {busy ? t("settings.sending") : t("settings.sendTest")}
        </Button>
      </Stack>
      {result && (
        <Alert severity={result.ok ? "success" : "error"} data-testid="test-mail-result" sx={{ wordBreak: "break-word" }}>
          {result.ok ? t("settings.testSent", { answer: result.message }) : t("settings.testFailed", { answer: result.message })}
        </Alert>
      )}
    </Stack>
  );
}

export function MailSection() {
  return (
    <SettingsSection
      id="mail"
      fields={[
        { key: "mail_host", kind: "text" },
        { key: "mail_username", kind: "text", help: "settings.help.mail_username" },
        { key: "mail_password", kind: "secret" },
        { key: "mail_smtp_secure", kind: "select", options: SETTING_CHOICES.mail_smtp_secure ?? [] },
        { key: "mail_port", kind: "number" },
        { key: "mail_dominio_erp", kind: "text" },
      ]}
    >
      <ImageUpload settingKey="mail_logo" endpoint="/email/upload" field="image" accept="image/png,image/jpeg" />
      <ImageUpload settingKey="mail_fundo_contrato" endpoint="/email/upload" field="image" accept="image/png,image/jpeg" />
      <ImageUpload settingKey="mail_marca_agua" endpoint="/email/upload" field="image" accept="image/png,image/jpeg" />
      <TestMail />
    </SettingsSection>
  );
}
