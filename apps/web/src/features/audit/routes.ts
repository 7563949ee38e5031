import type { PageRoute } from "../../lib/features";
import { loadSettingsTexts } from "../settings";

/** The screen names settings by their labels on the settings screen: those texts load with it. */
export const auditRoutes: PageRoute[] = [
  {
    path: "/audit",
    page: () => Promise.all([import("./components/AuditPage"), loadSettingsTexts()]).then(([page]) => page),
    admin: true,
  },
];
