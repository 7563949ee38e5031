/** Queues (admins): the screen, the queue picker of the user and connection forms, and the queues query. */
export { useQueues } from "./api/queues";
export { QueueMultiSelect } from "./components/QueueMultiSelect";
export { queuesMenu } from "./menu";
export { queuesRoutes } from "./routes";
