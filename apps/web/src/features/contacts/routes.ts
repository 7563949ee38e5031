import type { PageRoute } from "../../lib/features";

export const contactsRoutes: PageRoute[] = [{ path: "/contacts", page: () => import("./components/ContactsPage") }];
