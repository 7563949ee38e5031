/** The embedded finance pages and the not-found page. */
export { placeholderRoutes } from "./routes";
