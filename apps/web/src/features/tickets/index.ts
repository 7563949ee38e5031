/**
 * Tickets: the lists, the ticket's data and actions (accept, transfer, finish), the bell, desktop
 * notifications and the live ticket cache every screen keeps current. The inbox screen (the lists
 * beside one ticket's chat) is composed in app/inbox from this feature and the others.
 */
export { useTicket, useTicketsLive, useUpdateTicket } from "./api/tickets";
export { NotificationsBell } from "./components/NotificationsBell";
export { TransferTicketDialog } from "./components/TicketDialogs";
export { TicketsManager } from "./components/TicketsManager";
export { ticketsMenu } from "./menu";
export { openTicket, useTicketNotifications } from "./notifications";
