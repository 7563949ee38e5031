/** Quick answers: the screen (the chat's `/` lookup reads the same API on its own). */
export { quickAnswersMenu } from "./menu";
export { quickAnswersRoutes } from "./routes";
