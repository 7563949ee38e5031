import type { PageRoute } from "../../lib/features";

export const queuesRoutes: PageRoute[] = [{ path: "/Queues", page: () => import("./components/QueuesPage"), admin: true }];
