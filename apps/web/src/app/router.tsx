import { type RouteObject, createBrowserRouter } from "react-router-dom";
import { FullPageSpinner } from "../components/FullPageSpinner";
import { LoginPage, authRoutes } from "../features/auth";
import { connectionsRoutes } from "../features/connections";
import { contactsRoutes } from "../features/contacts";
import { dashboardRoutes } from "../features/dashboard";
import { contractsRoutes } from "../features/contracts";
import { apiDocRoutes } from "../features/api-doc";
import { disparosRoutes } from "../features/disparos";
import { incidentsRoutes } from "../features/incidents";
import { chatbotRoutes } from "../features/chatbot";
import { placeholderRoutes } from "../features/placeholder";
import { profileRoutes } from "../features/profile";
import { queuesRoutes } from "../features/queues";
import { quickAnswersRoutes } from "../features/quick-answers";
import { settingsRoutes } from "../features/settings";
import { schedulesRoutes } from "../features/schedules";
import { auditRoutes } from "../features/audit";
import { usersRoutes } from "../features/users";
import type { PageRoute } from "../lib/features";
import { AdminRoute, PrivateRoute, PublicRoute, SupervisorRoute } from "./guards";
import { inboxRoutes } from "./inbox/routes";

/** The screens of the signed-in app, feature by feature (placeholders last: they hold the not-found page). */
const SCREENS: PageRoute[] = [
  ...inboxRoutes,
  ...contactsRoutes,
  ...quickAnswersRoutes,
  ...usersRoutes,
  ...queuesRoutes,
  ...connectionsRoutes,
  ...disparosRoutes,
  ...dashboardRoutes,
  ...settingsRoutes,
  ...contractsRoutes,
  ...schedulesRoutes,
  ...incidentsRoutes,
  ...auditRoutes,
  ...apiDocRoutes,
  ...chatbotRoutes,
  ...profileRoutes,
  ...placeholderRoutes,
];

/** Every screen beyond the login is its own chunk, loaded on the first visit. */
const screen = ({ path, page, handle }: PageRoute): RouteObject => ({
  path,
  handle,
  lazy: async () => ({ Component: (await page()).default }),
});

/** The spec's route table (all exact, all private except /login and /signup). Matching ignores case: /Queues and /queues both work. */
export const routes: RouteObject[] = [
  {
    element: <PublicRoute />,
    children: [{ path: "/login", element: <LoginPage /> }, ...authRoutes.map(screen)],
  },
  {
    element: <PrivateRoute />,
    children: [
      {
        // the shell (top bar, drawer, what stays live on every screen) with the screens inside
        lazy: async () => ({ Component: (await import("./shell")).default }),
        HydrateFallback: FullPageSpinner,
        children: [
          ...SCREENS.filter((s) => !s.admin).map(screen),
          { element: <AdminRoute />, children: SCREENS.filter((s) => s.admin && !s.supervisor).map(screen) },
          { element: <SupervisorRoute />, children: SCREENS.filter((s) => s.admin && s.supervisor).map(screen) },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
