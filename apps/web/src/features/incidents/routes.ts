import type { PageRoute } from "../../lib/features";

export const incidentsRoutes: PageRoute[] = [
  { path: "/incidents", page: () => import("./components/IncidentsPage"), admin: true, supervisor: true },
];
