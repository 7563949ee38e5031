export * from "./users.js";
export * from "./queues.js";
export * from "./contacts.js";
export * from "./whatsapps.js";
export * from "./tickets.js";
export * from "./messages.js";
export * from "./quick-answers.js";
export * from "./settings.js";
