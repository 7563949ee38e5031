/** The API documentation page (/doc) with its test forms, and its drawer entry. */
export { apiDocMenu } from "./menu";
export { apiDocRoutes } from "./routes";
