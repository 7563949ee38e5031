import type { PageRoute } from "../../lib/features";

/** /doc for every signed-in user (the token is what guards the API, not the page). */
export const apiDocRoutes: PageRoute[] = [{ path: "/doc", page: () => import("./components/DocPage") }];
