/** Queues (admins): the screen, and the queues query (the user and connection forms pick from it). */
export { useQueues } from "./api/queues";
export { queuesMenu } from "./menu";
export { queuesRoutes } from "./routes";
