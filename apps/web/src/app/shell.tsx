import { AppLayout } from "../components/layout/AppLayout";
import { apiDocMenu } from "../features/api-doc";
import { LanguageMenu } from "../components/layout/LanguageMenu";
import { VolumeControl } from "../components/layout/VolumeControl";
import { isAdmin, isSupervisor, useAuth, useLiveSession } from "../features/auth";
import { connectionsMenu, useConnectionHealthAlerts } from "../features/connections";
import { contactsMenu } from "../features/contacts";
import { dashboardMenu } from "../features/dashboard";
import { contractsMenu } from "../features/contracts";
import { disparosMenu } from "../features/disparos";
import { IncidentBanner, incidentsMenu } from "../features/incidents";
import { chatbotMenu } from "../features/chatbot";
import { queuesMenu } from "../features/queues";
import { quickAnswersMenu } from "../features/quick-answers";
import { schedulesMenu } from "../features/schedules";
import { auditMenu } from "../features/audit";
import { DarkModeToggle, settingsMenu, useSettings, useSettingsLive } from "../features/settings";
import { NotificationsBell, ticketsMenu, useTicketNotifications, useTicketsLive } from "../features/tickets";
import { usersMenu } from "../features/users";
import { useKeepLanguage, useLanguageAtSignIn } from "../features/profile";
import { useNavigate } from "react-router-dom";
import type { MenuEntry } from "../lib/features";

/** The drawer, in order: everyone's entries, then the administration section (core §2). */
const MENU: MenuEntry[] = [
  ticketsMenu,
  contactsMenu,
  quickAnswersMenu,
  dashboardMenu,
  usersMenu,
  queuesMenu,
  chatbotMenu,
  disparosMenu,
  contractsMenu,
  schedulesMenu,
  incidentsMenu,
  connectionsMenu,
  apiDocMenu,
  settingsMenu,
  auditMenu,
];

/** What stays live on every screen: the signed-in user, the ticket rooms and cached lists (the bell too), notifications. */
function useSessionLive() {
  useLiveSession();
  useLanguageAtSignIn();
  useSettingsLive();
  useTicketsLive();
  useTicketNotifications();
}

/** The signed-in app's frame: the shared layout, given the features' drawer entries and top bar buttons. */
export default function Shell() {
  const { user, logout } = useAuth();
  const { get } = useSettings();
  const navigate = useNavigate();
  const keepLanguage = useKeepLanguage();
  useSessionLive();
  const admin = isAdmin(user);
  useConnectionHealthAlerts(admin);
  const shown = MENU.filter((e) => !e.setting || get(e.setting) === "enabled");
  return (
    <AppLayout
      logo={get("logoDashboard") || "/brand.svg"}
      userName={user?.name}
      onLogout={() => void logout()}
      onProfile={() => navigate("/profile")}
      menu={shown.filter((e) => !e.admin)}
      adminMenu={admin ? shown.filter((e) => e.admin) : isSupervisor(user) ? shown.filter((e) => e.admin && e.supervisor) : []}
      banner={<IncidentBanner canManage={admin || isSupervisor(user)} />}
      actions={
        <>
          <VolumeControl />
          <NotificationsBell />
          <LanguageMenu onChange={keepLanguage} />
          {admin && <DarkModeToggle />}
        </>
      }
    />
  );
}
