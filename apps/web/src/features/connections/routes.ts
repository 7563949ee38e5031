import type { PageRoute } from "../../lib/features";

export const connectionsRoutes: PageRoute[] = [{ path: "/connections", page: () => import("./components/ConnectionsPage"), admin: true }];
