import { type MailTestBody, SETTING_CHOICES, type SettingKey } from "@balcao/contract";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../../../lib/toast";
import { useAuth } from "../../../auth";
import { useTestMail } from "../../api/test-settings";
import { ImageUpload } from "../ImageUpload";
import { SettingsSection } from "../SettingsForm";
import { TestResult } from "./SimpleSections";

/** 'Enviar e-mail de teste' with what the form holds (a blank password: the saved one, for the saved server only). */
function TestMail({ value }: { value: (key: SettingKey) => string }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [to, setTo] = useState(user?.email ?? "");
  const test = useTestMail();
  const send = () =>
    test.mutate(
      {
        ...(to && { to }),
        mail_host: value("mail_host"),
        mail_port: value("mail_port"),
        mail_username: value("mail_username"),
        mail_password: value("mail_password"),
        mail_smtp_secure: value("mail_smtp_secure") as MailTestBody["mail_smtp_secure"],
        mail_dominio_erp: value("mail_dominio_erp"),
      },
      { onError: toastError },
    );
  const result = test.data;
  return (
    <Stack spacing={1}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
        <TextField label={t("settings.testTo")} type="email" value={to} onChange={(e) => setTo(e.target.value)} />
        <Button variant="outlined" onClick={send} disabled={test.isPending} sx={{ flexShrink: 0 }} data-testid="send-test-mail">
          {test.isPending ? t("settings.sending") : t("settings.sendTest")}
        </Button>
      </Stack>
      {result && (
        <TestResult
          ok={result.ok}
          text={result.ok ? t("settings.testSent", { answer: result.message }) : t("settings.testFailed", { answer: result.message })}
          technical={result.technical}
          onClose={() => test.reset()}
          testId="test-mail-result"
        />
      )}
    </Stack>
  );
}

export function MailSection() {
  const { t } = useTranslation();
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
      {(value) => (
        <>
          <ImageUpload settingKey="mail_logo" endpoint="/email/upload" field="image" accept="image/png,image/jpeg" />
          <Typography variant="body2" color="text.secondary">
            {t("settings.testUsesForm")}
          </Typography>
          <TestMail value={value} />
        </>
      )}
    </SettingsSection>
  );
}
