import type { PageRoute } from "../../lib/features";

export const settingsRoutes: PageRoute[] = [{ path: "/Settings", page: () => import("./components/SettingsPage"), admin: true }];
