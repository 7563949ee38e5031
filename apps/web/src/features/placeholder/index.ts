/** Routes whose screens come later, embedded finance pages, the not-found page, and their drawer entries. */
export { comingSoonMenu } from "./menu";
export { placeholderRoutes } from "./routes";
