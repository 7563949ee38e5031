import { normalizePublicUrl, publicUrlWarnings, SELF_SERVICE_TEXT_KEYS, type SettingKey, SETTING_CHOICES } from "@balcao/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../../api/errors";
import { PublicUrlWarnings } from "../../../../components/PublicUrlWarnings";
import i18n from "../../../../locales";
import { contrastRatio } from "../../../../lib/contrast";
import { useTestBillingConnection } from "../../api/test-settings";
import { usePublicUrl } from "../../api/public-url";
import { lockSettings } from "../../api/settings-token";
import { ImageUpload } from "../ImageUpload";
import { SettingsSection } from "../SettingsForm";

/**
 * The provider's identity: its contracts' header and CONTRATADA, `{empresa}`, `{cnpj_empresa}`,
 * `{endereco_empresa}`; and the public address links start with (signing links, the Cloud webhook),
 * warned about while not public HTTPS.
 */
export function CompanySection() {
  const server = usePublicUrl();
  return (
    <SettingsSection
      id="company"
      fields={[
        { key: "empresa_nome", kind: "text", help: "settings.help.empresa_nome" },
        { key: "empresa_cnpj", kind: "cnpj", help: "settings.help.empresa_cnpj" },
        { key: "empresa_endereco", kind: "text", help: "settings.help.empresa_endereco" },
        { key: "publicUrl", kind: "url", help: "settings.help.publicUrl" },
      ]}
      warnings={(value) => {
        // what is typed, else what the server uses now (PUBLIC_URL, or this page's address)
        const typed = normalizePublicUrl(value("publicUrl"));
        return typed ? (
          <PublicUrlWarnings warnings={publicUrlWarnings(typed)} />
        ) : (
          <PublicUrlWarnings warnings={server.warnings} unset={!server.isLoading && !server.configured} />
        );
      }}
    />
  );
}

export function WitnessSection() {
  return (
    <SettingsSection
      id="witnesses"
      fields={[
        { key: "contrato_nome1", kind: "text" },
        { key: "contrato_cpf1", kind: "cpf" },
        { key: "contrato_nome2", kind: "text" },
        { key: "contrato_cpf2", kind: "cpf" },
      ]}
    />
  );
}

/** A test's answer: what failed and what to check first, the technical detail second (smaller). */
export function TestResult({
  ok,
  text,
  technical,
  onClose,
  testId,
}: {
  ok: boolean;
  text: string;
  technical?: string;
  onClose: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      severity={ok ? "success" : "warning"}
      onClose={onClose}
      sx={{ alignSelf: "stretch", wordBreak: "break-word" }}
      data-testid={testId}
    >
      {text}
      {technical && (
        <Typography
          variant="caption"
          component="div"
          sx={{ mt: 0.5, opacity: 0.8, fontFamily: "monospace" }}
          data-testid={`${testId}-technical`}
        >
          {t("settings.technicalDetail", { detail: technical })}
        </Typography>
      )}
    </Alert>
  );
}

/** 'Testar conexão' with what the form holds (a blank token: the saved one, for the saved URL only). */
function IntegrationTest({ value }: { value: (key: SettingKey) => string }) {
  const { t } = useTranslation();
  const test = useTestBillingConnection();
  const run = () =>
    test.mutate({
      system: value("integrationSystem") === "MK-AUTH" ? "MK-AUTH" : "SGP",
      url: value("integrationUrl"),
      app: value("integrationApp"),
      token: value("integrationToken"),
    });
  return (
    <Stack spacing={1} sx={{ alignItems: "flex-start" }}>
      <Typography variant="body2" color="text.secondary">
        {t("settings.testUsesForm")}
      </Typography>
      <Button variant="outlined" onClick={run} loading={test.isPending} data-testid="test-integration">
        {t("settings.testConnection")}
      </Button>
      {test.data && (
        <TestResult
          ok={test.data.ok}
          text={`${test.data.system}: ${test.data.detail}`}
          technical={test.data.technical}
          onClose={() => test.reset()}
          testId="test-integration-result"
        />
      )}
      {test.error && (
        <Alert severity="error" onClose={() => test.reset()} sx={{ alignSelf: "stretch" }}>
          {errorMessage(test.error, (key) => (i18n.exists(key) ? t(key) : undefined))}
        </Alert>
      )}
    </Stack>
  );
}

export function IntegrationSection() {
  return (
    <SettingsSection
      id="integration"
      fields={[
        { key: "integrationSystem", kind: "select", options: SETTING_CHOICES.integrationSystem ?? [] },
        { key: "integrationUrl", kind: "url", help: "settings.help.integrationUrl" },
        { key: "integrationApp", kind: "text" },
        { key: "integrationToken", kind: "secret" },
        { key: "mkAuthNotes", kind: "multiline" },
        { key: "mkAuthUnlockDays", kind: "number", help: "settings.help.mkAuthUnlockDays" },
        { key: "mkAuthUnlockEveryDays", kind: "number", help: "settings.help.mkAuthUnlockEveryDays" },
        { key: "financeBaseUrl", kind: "url", help: "settings.help.financeBaseUrl" },
      ]}
    >
      {(value) => <IntegrationTest value={value} />}
    </SettingsSection>
  );
}

export function LogosSection() {
  const logos: [string, SettingKey][] = [
    ["login", "logoLogin"],
    ["dashboard", "logoDashboard"],
    ["mensagem", "logoMensagem"],
  ];
  return (
    <SettingsSection id="logos">
      {logos.map(([key, setting]) => (
        <ImageUpload
          key={key}
          settingKey={setting}
          endpoint={`/upload/${key}`}
          field="file"
          accept="image/png,image/jpeg,image/webp,image/svg+xml"
        />
      ))}
      <ImageUpload
        settingKey="favicon"
        endpoint="/upload/favicon"
        field="file"
        accept="image/x-icon,image/vnd.microsoft.icon,image/png,image/svg+xml,.ico"
      />
    </SettingsSection>
  );
}

/** Below 3:1 the top bar's white text and icons, or coloured text on the page, stop being readable. */
const MIN_CONTRAST = 3;

export function ColorsSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection
      id="colors"
      fields={[
        { key: "topbarColor", kind: "color" },
        { key: "secondaryColor", kind: "color" },
        { key: "loginPagePrimaryColor", kind: "color" },
        { key: "loginPageSecondaryColor", kind: "color" },
        { key: "darkMode", kind: "switch" },
      ]}
      warnings={(value) => {
        const warn: string[] = [];
        if (contrastRatio(value("topbarColor"), "#ffffff") < MIN_CONTRAST) warn.push(t("settings.contrast.topbar"));
        if (contrastRatio(value("secondaryColor"), "#ffffff") < MIN_CONTRAST) warn.push(t("settings.contrast.secondary"));
        if (contrastRatio(value("loginPagePrimaryColor"), value("loginPageSecondaryColor")) < 1.5) warn.push(t("settings.contrast.login"));
        return warn.map((w) => (
          <Alert key={w} severity="warning" data-testid="contrast-warning">
            {w}
          </Alert>
        ));
      }}
    />
  );
}

export function TextsSection() {
  return (
    <SettingsSection
      id="texts"
      fields={[
        { key: "timezone", kind: "text", help: "settings.help.timezone" },
        { key: "autoCloseHours", kind: "number", help: "settings.help.autoCloseHours" },
        { key: "scheduleGraceMinutes", kind: "number", help: "settings.help.scheduleGraceMinutes" },
        { key: "timeCreateNewTicket", kind: "number", help: "settings.help.timeCreateNewTicket" },
        { key: "msgInvalidOption", kind: "multiline" },
        { key: "msgMediaUnavailable", kind: "text" },
        { key: "msgVoiceCall", kind: "text" },
        { key: "msgVideoCall", kind: "text" },
        { key: "disparoOptOutWords", kind: "text", help: "settings.help.disparoOptOutWords" },
        { key: "disparoOptOutReply", kind: "multiline" },
      ]}
    />
  );
}

/** What the billing self-service bot says on WhatsApp, in the provider's words ({name}, {due}, … filled in). */
export function SelfServiceSection() {
  const help = new Set<SettingKey>([
    "selfServiceMenu",
    "selfServiceInvoice",
    "selfServiceUnlockDone",
    "selfServiceUnlockRefused",
    "selfServiceConnection",
    "selfServiceChooseContract",
  ]);
  return (
    <SettingsSection
      id="selfService"
      fields={SELF_SERVICE_TEXT_KEYS.map((key) => ({
        key,
        kind: "multiline" as const,
        ...(help.has(key) && { help: `settings.help.${key}` }),
      }))}
    />
  );
}

/** LGPD: how long the audit log and the messages' media files are kept (daily jobs delete what is older). */
export function RetentionSection() {
  return (
    <SettingsSection
      id="retention"
      fields={[
        { key: "auditRetentionDays", kind: "number", help: "settings.help.auditRetentionDays" },
        { key: "mediaRetentionDays", kind: "number", help: "settings.help.mediaRetentionDays" },
      ]}
    />
  );
}

/** Changing the settings password closes the gate (the server drops tokens given under the old one). */
export function AccessSection() {
  return (
    <SettingsSection
      id="access"
      fields={[{ key: "settingsPassword", kind: "secret", help: "settings.help.settingsPassword" }]}
      onSaved={lockSettings}
    />
  );
}
