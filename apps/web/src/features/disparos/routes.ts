import type { PageRoute } from "../../lib/features";

export const disparosRoutes: PageRoute[] = [{ path: "/Disparos", page: () => import("./components/DisparosPage"), admin: true }];
