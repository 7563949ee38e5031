import type { PageRoute } from "../../lib/features";

const page = () => import("./components/TicketsPage");

/** The lists beside the chat: at /, /tickets/:ticketId? and /chat/:ticketId?. */
export const ticketsRoutes: PageRoute[] = [
  { path: "/", page },
  { path: "/tickets/:ticketId?", page },
  { path: "/chat/:ticketId?", page },
];
