import LockIcon from "@mui/icons-material/Lock";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../../components/PageHeader";
import "../i18n";
import { useAuth } from "../../auth";
import { useSettings } from "../api/get-settings";
import { lockSettings, useSettingsUnlocked } from "../api/settings-token";
import { SettingsGate } from "./SettingsGate";
import { AiSection } from "./sections/AiSection";
import { MailSection } from "./sections/MailSection";
import { PixSection } from "./sections/PixSection";
import {
  AccessSection,
  ColorsSection,
  CompanySection,
  IntegrationSection,
  LogosSection,
  RetentionSection,
  SelfServiceSection,
  TextsSection,
  WitnessSection,
} from "./sections/SimpleSections";

/** /Settings: behind 'Acesso restrito', each section a card that saves on its own, live through the `settings` event. */
export default function SettingsPage() {
  const { t } = useTranslation();
  const { isLoading, has } = useSettings();
  const { user } = useAuth();
  const unlocked = useSettingsUnlocked(user?.id);
  const passwordSet = has("settingsPassword");
  return (
    <>
      <PageHeader title={t("menu.settings")}>
        {unlocked && passwordSet && (
          <Button startIcon={<LockIcon />} color="inherit" onClick={lockSettings} data-testid="settings-lock">
            {t("settings.lock")}
          </Button>
        )}
      </PageHeader>
      <Box sx={{ px: { xs: 1, sm: 3 }, pb: 4, overflowY: "auto", flex: 1 }}>
        {isLoading ? (
          <Box sx={{ display: "flex", justifyContent: "center", py: 6 }}>
            <CircularProgress />
          </Box>
        ) : !unlocked || !passwordSet ? (
          <SettingsGate passwordSet={passwordSet} />
        ) : (
          <Box sx={{ maxWidth: 900, mx: "auto" }}>
            <PixSection />
            <CompanySection />
            <WitnessSection />
            <IntegrationSection />
            <SelfServiceSection />
            <AiSection />
            <MailSection />
            <LogosSection />
            <ColorsSection />
            <TextsSection />
            <RetentionSection />
            <AccessSection />
          </Box>
        )}
      </Box>
    </>
  );
}
