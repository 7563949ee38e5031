/** Disparos (admins): the screen and its drawer entry. */
export { disparosMenu } from "./menu";
export { disparosRoutes } from "./routes";
