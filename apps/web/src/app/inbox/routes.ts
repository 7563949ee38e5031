import type { PageRoute } from "../../lib/features";

const page = () => import("./InboxPage");

/** The lists beside the chat: at /, /tickets/:ticketId? and /chat/:ticketId?. */
export const inboxRoutes: PageRoute[] = [
  { path: "/", page },
  { path: "/tickets/:ticketId?", page },
  { path: "/chat/:ticketId?", page },
];
