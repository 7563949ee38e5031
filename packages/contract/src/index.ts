export * from "./errors.js";
export * from "./constants.js";
export * from "./validation.js";
export * from "./entities.js";
export * from "./api.js";
export * from "./settings.js";
export type * from "./socket.js";
export * from "./text.js";
export * from "./disparos.js";
