import type { AiTestAnswer, SettingKey } from "@balcao/contract";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { http } from "../../../../api/http";
import { errorMessage } from "../../../../api/errors";
import i18n from "../../../../locales";
import { closeGateOn } from "../../api/get-settings";
import { gateHeaders } from "../../api/settings-token";
import { SettingsSection } from "../SettingsForm";

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** 'Testar' with the values typed in the section (a blank key: the saved one, sent only to the saved address). */
function AiTest({ value }: { value: (key: SettingKey) => string }) {
  const { t } = useTranslation();
  const test = useMutation({
    meta: { silent: true },
    mutationFn: () =>
      http.request<AiTestAnswer>("POST", "/ai/test", {
        body: {
          baseUrl: value("aiBaseUrl"),
          apiKey: value("aiApiKey"),
          model: value("aiModel"),
          transcriptionModel: value("aiTranscriptionModel"),
        },
        headers: gateHeaders(),
      }),
    onError: closeGateOn,
  });
  const host = hostOf(value("aiBaseUrl"));
  return (
    <Stack spacing={1} sx={{ alignItems: "flex-start" }}>
      <Alert severity="info" sx={{ alignSelf: "stretch" }} data-testid="ai-privacy">
        <Typography variant="body2" sx={{ mb: 0.5 }}>
          {t("settings.ai.whatIsSent", { host })}
        </Typography>
        <Typography variant="body2">{t("settings.ai.privacy")}</Typography>
      </Alert>
      <Button variant="outlined" onClick={() => test.mutate()} loading={test.isPending} data-testid="test-ai">
        {t("settings.ai.test")}
      </Button>
      {test.data && (
        <Alert
          severity={test.data.ok ? "success" : "warning"}
          onClose={() => test.reset()}
          sx={{ alignSelf: "stretch" }}
          data-testid="ai-test-result"
        >
          {test.data.detail}
        </Alert>
      )}
      {test.isError && (
        <Alert severity="error" onClose={() => test.reset()} sx={{ alignSelf: "stretch" }}>
          {errorMessage(test.error, (key) => (i18n.exists(key) ? t(key) : undefined))}
        </Alert>
      )}
    </Stack>
  );
}

/** 'Inteligência artificial': any OpenAI-compatible server, off until turned on; says what is sent and where. */
export function AiSection() {
  return (
    <SettingsSection
      id="ai"
      fields={[
        { key: "aiEnabled", kind: "switch" },
        { key: "aiBaseUrl", kind: "url", help: "settings.help.aiBaseUrl" },
        { key: "aiApiKey", kind: "secret" },
        { key: "aiModel", kind: "text", help: "settings.help.aiModel" },
        { key: "aiTranscriptionModel", kind: "text", help: "settings.help.aiTranscriptionModel" },
        { key: "aiRedact", kind: "switch" },
      ]}
      warnings={(value) => <AiTest value={value} />}
    />
  );
}
