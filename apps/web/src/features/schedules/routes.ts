import type { PageRoute } from "../../lib/features";

export const schedulesRoutes: PageRoute[] = [{ path: "/schedules", page: () => import("./components/SchedulesPage"), admin: true }];
