import type { Message, Ticket } from "@balcao/contract";
import type { Clock } from "../../lib/pace.js";
import type { BillingRegistry } from "../billing/registry.js";
import type { ConnectionInfo } from "../connection-facts/info.js";
import type { DisparoDeps } from "../disparos/service.js";
import type { InboundConfig } from "../messages/inbound-config.js";
import type { ConvDeps } from "../outbox/deps.js";
import type { BotState } from "./state.js";

/** One customer message to a Typebot flow (an outside system's calls: on the job runner). */
export const TYPEBOT_JOB = "bots.typebot";
/** One customer message to the billing self-service (its calls are an outside system's: on the job runner). */
export const SELF_SERVICE_JOB = "bots.selfservice";

export interface BotDeps {
  conv: ConvDeps;
  clock: Clock;
  disparos: DisparoDeps;
  /** queues a job (the bridge's calls) after the caller's commit */
  enqueueJob(name: string, payload: unknown, opts: { maxAttempts: number }): Promise<unknown>;
  /** the configured billing system, for the self-service step (absent: no self-service) */
  billing?: BillingRegistry;
  /** the connection and the opt-out words, cached briefly (dropped when an admin changes them) */
  config: InboundConfig;
}

/** What a step sees of a customer's message: the message, its ticket, and (read once, when a step asks) the bot state and the connection. */
export interface StepInput {
  message: Message;
  ticket: Ticket;
  state(): Promise<BotState | undefined>;
  connection(): Promise<ConnectionInfo | undefined>;
}

/** A bot step: answers true when it handled the message (the steps after it do not run). */
export type BotStep = (input: StepInput) => Promise<boolean>;
