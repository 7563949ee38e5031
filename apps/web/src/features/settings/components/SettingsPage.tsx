import LockIcon from "@mui/icons-material/Lock";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { type ComponentType, useRef } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../../components/PageHeader";
import "../i18n";
import { useAuth } from "../../auth";
import { useSettings } from "../api/get-settings";
import { lockSettings, useSettingsUnlocked } from "../api/settings-token";
import { SettingsGate } from "./SettingsGate";
import { SettingsNav, useSectionNav } from "./SettingsNav";
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

/** The sections in order, each by the id its card, its nav entry and the URL's hash (#mail) share. */
const SECTIONS: readonly (readonly [string, ComponentType])[] = [
  ["pix", PixSection],
  ["company", CompanySection],
  ["witnesses", WitnessSection],
  ["integration", IntegrationSection],
  ["selfService", SelfServiceSection],
  ["ai", AiSection],
  ["mail", MailSection],
  ["logos", LogosSection],
  ["colors", ColorsSection],
  ["texts", TextsSection],
  ["retention", RetentionSection],
  ["access", AccessSection],
];
const IDS = SECTIONS.map(([id]) => id);

/**
 * /Settings: behind 'Acesso restrito', each section a card that saves on its own, live through the
 * `settings` event; a list of the sections beside them (tabs above them on phones) jumps to one.
 */
export default function SettingsPage() {
  const { t } = useTranslation();
  const theme = useTheme();
  const side = useMediaQuery(theme.breakpoints.up("lg"));
  const { isLoading, has } = useSettings();
  const { user } = useAuth();
  const unlocked = useSettingsUnlocked(user?.id);
  const passwordSet = has("settingsPassword");
  const open = !isLoading && unlocked && passwordSet;
  const scroller = useRef<HTMLDivElement>(null);
  const { active, jump } = useSectionNav(IDS, scroller, open);
  return (
    <>
      <PageHeader title={t("menu.settings")}>
        {unlocked && passwordSet && (
          <Button startIcon={<LockIcon />} color="inherit" onClick={lockSettings} data-testid="settings-lock">
            {t("settings.lock")}
          </Button>
        )}
      </PageHeader>
      <Box ref={scroller} sx={{ px: { xs: 1, sm: 3 }, pb: 4, overflowY: "auto", flex: 1 }} data-testid="settings-scroll">
        {isLoading ? (
          <Box sx={{ display: "flex", justifyContent: "center", py: 6 }}>
            <CircularProgress />
          </Box>
        ) : !open ? (
          <SettingsGate passwordSet={passwordSet} />
        ) : (
          <Box
            sx={{
              maxWidth: side ? 1180 : 900,
              mx: "auto",
              display: side ? "grid" : "block",
              gridTemplateColumns: "232px minmax(0, 1fr)",
              columnGap: 3,
            }}
          >
            <SettingsNav ids={IDS} active={active} onJump={jump} side={side} />
            <Box sx={{ minWidth: 0 }}>
              {SECTIONS.map(([id, Section]) => (
                // the target of the nav and of the hash: clear of the tabs stuck on top on phones
                <Box key={id} id={id} sx={{ scrollMarginTop: side ? 0 : 64 }}>
                  <Section />
                </Box>
              ))}
            </Box>
          </Box>
        )}
      </Box>
    </>
  );
}
