export { BaileysChannelError, type BaileysChannelOptions, type BaileysErrorCode, createBaileysChannel } from "./driver.js";
export { DEFAULT_RECONNECT_POLICY, type ReconnectPolicyOptions } from "./policy.js";
export type { BaileysSocketConfig, SocketFactory, WASocketLike } from "./socket.js";
