/**
 * Sessions run by other processes, as the channel manager sees them (channels/manager.ts): the
 * cluster's session leases (ownership.ts) implement it. Here, below both, so the channels and the
 * cluster each depend on it and not on each other.
 */
export interface RemoteSessions {
  /** this process owns the connection: its session, if any, is the local one */
  owns(whatsappId: number): boolean;
  /** runs one of SESSION_CALLS at the connection's owner (rejects when no process owns it) */
  call(whatsappId: number, method: string, args: unknown[]): Promise<unknown>;
  /** the connection's session runs in another process and is connected there */
  connectedElsewhere(whatsappId: number): Promise<boolean>;
  /**
   * Before a session is started, restarted, logged out or stopped on request: true when its owner
   * (another process) did it; false when this process owns it (taking its lease when free) and does it.
   */
  atOwner(whatsappId: number, op: SessionOp): Promise<boolean>;
}

/** "ensure": start the session unless it already runs (a new connection, which a lease round may have started first). */
export type SessionOp = "start" | "ensure" | "newQr" | "logout" | "stop";
