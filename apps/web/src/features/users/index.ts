/** Users (admins): the screen, and the users query the ticket filters and dialogs read. */
export { useUsers, visibleUsers } from "./api/users";
export { usersMenu } from "./menu";
export { usersRoutes } from "./routes";
