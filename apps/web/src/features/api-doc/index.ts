/** The API documentation page (/doc) with its test forms. */
export { apiDocRoutes } from "./routes";
