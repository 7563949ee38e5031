/** Scheduled messages: the Agendamentos screen (admins), its drawer entry, and the Agendar dialog the chat opens. */
export { schedulesMenu } from "./menu";
export { schedulesRoutes } from "./routes";
export { ScheduleDialog } from "./components/ScheduleDialog";
