import type { PageRoute } from "../../lib/features";

/** "Meu perfil": every signed-in user, whatever the profile. */
export const profileRoutes: PageRoute[] = [{ path: "/profile", page: () => import("./components/ProfilePage") }];
