import type { ComponentType } from "react";
import { type RouteObject, createBrowserRouter } from "react-router-dom";
import { LoginPage } from "../features/auth/LoginPage";
import { AdminRoute, FullPageSpinner, PrivateRoute, PublicRoute } from "./guards";

type Loader = () => Promise<{ default: ComponentType }>;
/** Every screen beyond the login is its own chunk. */
const lazy = (load: Loader): Pick<RouteObject, "lazy"> => ({ lazy: async () => ({ Component: (await load()).default }) });

const tickets = lazy(() => import("../features/tickets/components/TicketsPage"));
/** A screen of a later issue: an honest empty page titled from the route's handle. */
const page = (titleKey: string): Pick<RouteObject, "lazy" | "handle"> => ({
  handle: { titleKey },
  ...lazy(() => import("../features/placeholder/RoutePlaceholder")),
});
const embedded = (titleKey: string, path: string, withUser = false): Pick<RouteObject, "lazy" | "handle"> => ({
  handle: { titleKey, embed: { path, withUser } },
  ...lazy(() => import("../features/placeholder/RoutePlaceholder")),
});

/** The spec's route table (all exact, all private except /login and /signup). Matching ignores case: /Queues and /queues both work. */
export const routes: RouteObject[] = [
  {
    element: <PublicRoute />,
    children: [
      { path: "/login", element: <LoginPage /> },
      { path: "/signup", ...lazy(() => import("../features/auth/SignupPage")) },
    ],
  },
  {
    element: <PrivateRoute />,
    children: [
      {
        ...lazy(() => import("../components/layout/AppLayout")),
        HydrateFallback: FullPageSpinner,
        children: [
          { path: "/", ...tickets },
          { path: "/tickets/:ticketId?", ...tickets },
          { path: "/chat/:ticketId?", ...tickets },
          { path: "/contacts", ...lazy(() => import("../features/contacts/components/ContactsPage")) },
          { path: "/quickAnswers", ...lazy(() => import("../features/quick-answers/components/QuickAnswersPage")) },
          { path: "/Pix", ...embedded("pages.pix", "listarPix", true) },
          { path: "/Ajustes", ...embedded("pages.ajustes", "ajustes") },
          { path: "/AudioBot", ...embedded("pages.audioBot", "audioBot") },
          { path: "/Rotinas", ...embedded("pages.rotinas", "listarRotinas") },
          { path: "/RotinasLog", ...embedded("pages.rotinasLog", "listarRotinasLog") },
          { path: "/ConfigDisparos", ...embedded("pages.configDisparos", "configDisparos") },
          { path: "/doc", ...page("pages.doc") },
          {
            element: <AdminRoute />,
            children: [
              { path: "/users", ...lazy(() => import("../features/users/components/UsersPage")) },
              { path: "/Queues", ...lazy(() => import("../features/queues/components/QueuesPage")) },
              { path: "/dashboard", ...page("menu.dashboard") },
              { path: "/connections", ...lazy(() => import("../features/connections/components/ConnectionsPage")) },
              { path: "/Settings", ...page("menu.settings") },
              { path: "/ChatBot", ...page("menu.chatbot") },
              { path: "/Disparos", ...page("menu.disparos") },
              { path: "/contratos", ...page("menu.contracts") },
              { path: "/schedules", ...page("menu.schedules") },
            ],
          },
          { path: "*", ...lazy(() => import("../features/placeholder/NotFoundPage")) },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
