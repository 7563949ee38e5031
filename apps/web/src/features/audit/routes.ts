import type { PageRoute } from "../../lib/features";

export const auditRoutes: PageRoute[] = [{ path: "/audit", page: () => import("./components/AuditPage"), admin: true }];
