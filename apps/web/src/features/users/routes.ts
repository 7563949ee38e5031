import type { PageRoute } from "../../lib/features";

export const usersRoutes: PageRoute[] = [{ path: "/users", page: () => import("./components/UsersPage"), admin: true }];
