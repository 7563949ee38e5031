import type { PageRoute } from "../../lib/features";

export const dashboardRoutes: PageRoute[] = [
  { path: "/dashboard", page: () => import("./components/DashboardPage"), admin: true, supervisor: true },
];
