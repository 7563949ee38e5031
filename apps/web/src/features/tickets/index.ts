/**
 * Tickets: the lists, the ticket's screen with its actions, the bell, desktop notifications and the
 * live ticket cache every screen keeps current.
 */
export { useTicketsLive } from "./api/tickets";
export { NotificationsBell } from "./components/NotificationsBell";
export { ticketsMenu } from "./menu";
export { useTicketNotifications } from "./notifications";
export { ticketsRoutes } from "./routes";
