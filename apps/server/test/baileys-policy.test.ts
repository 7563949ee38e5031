import { DisconnectReason } from "baileys";
import { describe, expect, it } from "vitest";
import {
  backoffDelay,
  DEFAULT_RECONNECT_POLICY,
  type DisconnectContext,
  DisconnectCode,
  decideOnDisconnect,
  reasonName,
} from "../src/channels/baileys/policy.js";

const ctx = (over: Partial<DisconnectContext> = {}): DisconnectContext => ({
  statusCode: undefined,
  retries: 0,
  pairing: false,
  qrCodesShown: 0,
  badSessionStreak: 0,
  ...over,
});
const half = () => 0.5;
const decide = (over: Partial<DisconnectContext>) => decideOnDisconnect(ctx(over), DEFAULT_RECONNECT_POLICY, half);

describe("baileys reconnect policy", () => {
  it("uses Baileys' own DisconnectReason codes", () => {
    expect(DisconnectCode).toEqual({
      loggedOut: DisconnectReason.loggedOut,
      forbidden: DisconnectReason.forbidden,
      timedOut: DisconnectReason.timedOut,
      multideviceMismatch: DisconnectReason.multideviceMismatch,
      connectionClosed: DisconnectReason.connectionClosed,
      connectionReplaced: DisconnectReason.connectionReplaced,
      badSession: DisconnectReason.badSession,
      unavailableService: DisconnectReason.unavailableService,
      restartRequired: DisconnectReason.restartRequired,
    });
    expect(DisconnectReason.connectionLost).toBe(DisconnectCode.timedOut);
  });

  it("restartRequired (515) reconnects at once, keeps the auth, counts no retry", () => {
    expect(decide({ statusCode: 515 })).toEqual({
      action: "reconnect",
      delayMs: 0,
      clearAuth: false,
      countRetry: false,
      reason: "restartRequired",
    });
  });

  it("loggedOut (401) clears the auth and stops, waiting for a new QR", () => {
    expect(decide({ statusCode: 401 })).toEqual({ action: "stop", status: "DISCONNECTED", clearAuth: true, reason: "loggedOut" });
  });

  it("connectionReplaced (440) stops and says why, keeping the auth", () => {
    expect(decide({ statusCode: 440 })).toEqual({ action: "stop", status: "DISCONNECTED", clearAuth: false, reason: "connectionReplaced" });
  });

  it("forbidden (403) stops and says why, keeping the auth", () => {
    expect(decide({ statusCode: 403 })).toEqual({ action: "stop", status: "DISCONNECTED", clearAuth: false, reason: "forbidden" });
  });

  it("multideviceMismatch (411) clears the auth and stops", () => {
    expect(decide({ statusCode: 411 })).toEqual({ action: "stop", status: "DISCONNECTED", clearAuth: true, reason: "multideviceMismatch" });
  });

  it("badSession (500) backs off at first, and clears the auth and pairs again after a streak", () => {
    expect(decide({ statusCode: 500, badSessionStreak: 0 })).toMatchObject({
      action: "reconnect",
      clearAuth: false,
      countRetry: true,
      reason: "badSession",
    });
    expect(decide({ statusCode: 500, badSessionStreak: 1 })).toMatchObject({ action: "reconnect", clearAuth: false, countRetry: true });
    expect(decide({ statusCode: 500, badSessionStreak: 2 })).toEqual({
      action: "reconnect",
      delayMs: 0,
      clearAuth: true,
      countRetry: false,
      reason: "badSession",
    });
  });

  it.each([
    [408, "timedOut"],
    [428, "connectionClosed"],
    [503, "unavailableService"],
    [undefined, "unknown"],
    [599, "unknown(599)"],
  ])("%s reconnects with backoff and counts a retry", (statusCode, reason) => {
    expect(decide({ statusCode, retries: 0 })).toEqual({ action: "reconnect", delayMs: 1500, clearAuth: false, countRetry: true, reason });
  });

  it("backoff doubles per retry up to the cap, with jitter between half and all of the step", () => {
    const opts = { baseDelayMs: 2000, maxDelayMs: 300_000 };
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, opts, () => 0))).toEqual([1000, 2000, 4000, 8000]);
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, opts, () => 1))).toEqual([2000, 4000, 8000, 16000]);
    expect(backoffDelay(30, opts, () => 1)).toBe(300_000);
    expect(backoffDelay(30, opts, () => 0)).toBe(150_000);
    expect(decide({ statusCode: 428, retries: 3 })).toMatchObject({ delayMs: 12_000 });
  });

  it("gives up after maxRetries when a cap is configured", () => {
    const opts = { ...DEFAULT_RECONNECT_POLICY, maxRetries: 5 };
    expect(decideOnDisconnect(ctx({ statusCode: 428, retries: 4 }), opts, half)).toMatchObject({ action: "reconnect" });
    expect(decideOnDisconnect(ctx({ statusCode: 428, retries: 5 }), opts, half)).toEqual({
      action: "stop",
      status: "DISCONNECTED",
      clearAuth: false,
      reason: "connectionClosed: retries exhausted",
    });
  });

  it("while pairing, timedOut means the QR codes expired: a new batch at once, until the QR budget runs out", () => {
    expect(decide({ statusCode: 408, pairing: true, qrCodesShown: 6 })).toEqual({
      action: "reconnect",
      delayMs: 0,
      clearAuth: false,
      countRetry: false,
      reason: "qrExpired",
    });
    expect(decide({ statusCode: 408, pairing: true, qrCodesShown: 10 })).toEqual({
      action: "stop",
      status: "TIMEOUT",
      clearAuth: false,
      reason: "qrAttemptsExhausted",
    });
  });

  it("names every reason", () => {
    expect([401, 403, 408, 411, 428, 440, 500, 503, 515].map(reasonName)).toEqual([
      "loggedOut",
      "forbidden",
      "timedOut",
      "multideviceMismatch",
      "connectionClosed",
      "connectionReplaced",
      "badSession",
      "unavailableService",
      "restartRequired",
    ]);
  });
});
