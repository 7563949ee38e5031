import type { PageRoute } from "../../lib/features";

/** Public screens besides the login page (which ships with the first load). */
export const authRoutes: PageRoute[] = [{ path: "/signup", page: () => import("./SignupPage") }];
