import { noticeOpenIncidents } from "../../incidents/service.js";
import type { BotDeps, BotStep } from "../deps.js";

/**
 * 0. Outage mode: while an incident is open the customer gets its notice once (through the
 * outbox) and the ticket is linked to it. It answers nothing else: the steps after it run as
 * usual, so the customer can still reach the menu and an agent.
 */
export const incidentStep =
  (deps: BotDeps): BotStep =>
  async ({ message, ticket }) => {
    await noticeOpenIncidents(deps.conv, message, ticket);
    return false;
  };
