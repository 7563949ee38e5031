export * from "./users.js";
export * from "./queues.js";
export * from "./contacts.js";
export * from "./whatsapps.js";
export * from "./tickets.js";
