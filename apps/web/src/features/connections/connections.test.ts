import type { Whatsapp } from "@balcao/contract";
import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import i18n, { setLanguage } from "../../locales";
import { applySession, applyWhatsapp, connectionsQuery } from "./api/connections";
import { needsAttention } from "./api/connections-alert";
import { formatPhone } from "../../lib/phone";
import { actionsFor, reasonText } from "./components/ConnectionCard";
import { connectionForm, typebotIncomplete } from "./components/connection-form";
import "./i18n";

const w = (id: number, extra: Partial<Whatsapp> = {}): Whatsapp => ({
  id,
  name: `Conexão ${id}`,
  type: "simulator",
  status: "DISCONNECTED",
  qrcode: "",
  retries: 0,
  number: "",
  disconnectReason: "",
  isDefault: false,
  acceptCalls: true,
  callRefuseMessage: "",
  greetingMessage: "",
  farewellMessage: "",
  hasToken: false,
  queues: [],
  sendIntervalMs: 1000,
  sendJitterMs: 1500,
  sendBurst: 3,
  replyGapMs: 300,
  selfService: "off",
  backupWhatsappId: null,
  dailyCap: 1000,
  dailyCapToday: 1000,
  warmupDay: null,
  warmupEnabled: true,
  pairedAt: null,
  typebot: {
    enabled: false,
    baseUrl: "",
    slug: "",
    hasApiKey: false,
    expiryMinutes: 30,
    endKeyword: "",
    unknownMessage: "",
    delayMs: 1000,
  },
  createdAt: "",
  updatedAt: "",
  ...extra,
});

describe("connections: actions by status (spec 001 §2)", () => {
  it("DISCONNECTED retries or asks a new QR; OPENING waits; qrcode shows it; the others disconnect", () => {
    expect(actionsFor("DISCONNECTED")).toEqual(["start", "newQr"]);
    expect(actionsFor("OPENING")).toEqual(["connecting"]);
    expect(actionsFor("qrcode")).toEqual(["showQr"]);
    for (const s of ["CONNECTED", "PAIRING", "TIMEOUT"] as const) expect(actionsFor(s)).toEqual(["disconnect"]);
  });
});

describe("connections: the drawer alert", () => {
  it("the connections badge shows for qrcode, PAIRING, DISCONNECTED, TIMEOUT, OPENING only", () => {
    expect(needsAttention(["CONNECTED", "CONNECTED"])).toBe(false);
    for (const s of ["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING"] as const)
      expect(needsAttention(["CONNECTED", s])).toBe(true);
  });
});

describe("connections: live cache", () => {
  it("a session update changes status, QR and retries of that connection only, keeping its other fields", () => {
    const list = [w(1, { name: "A" }), w(2)];
    const next = applySession(list, { id: 1, status: "qrcode", qrcode: "abc", retries: 2, updatedAt: "x" });
    expect(next?.[0]).toMatchObject({ name: "A", status: "qrcode", qrcode: "abc", retries: 2, updatedAt: "x" });
    expect(next?.[1]).toBe(list[1]);
    expect(applySession(undefined, { id: 1, status: "OPENING", qrcode: "", retries: 0, updatedAt: "" })).toBeUndefined();
  });
  it("the card follows the linked phone: another number after pairing again, none after a logout", () => {
    const list = [w(1, { status: "CONNECTED", number: "5511911111111" })];
    const qr = applySession(list, { id: 1, status: "qrcode", qrcode: "q", retries: 0, number: "", updatedAt: "x" });
    expect(qr?.[0].number).toBe("");
    const paired = applySession(qr, { id: 1, status: "CONNECTED", qrcode: "", retries: 0, number: "5511922222222", updatedAt: "y" });
    expect(paired?.[0].number).toBe("5511922222222");
  });
  it("a status event keeps its place against a read that started before it and lands after it (the screen and the drawer badge)", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const reads: ((list: Whatsapp[]) => void)[] = [];
    const stop = new QueryObserver(client, {
      ...connectionsQuery,
      queryFn: () => new Promise<Whatsapp[]>((answer) => reads.push(answer)),
    }).subscribe(() => undefined);
    await vi.waitFor(() => expect(reads).toHaveLength(1));
    reads[0]([w(1, { status: "CONNECTED", updatedAt: "2026-11-28T10:00:00.000Z" })]);
    await vi.waitFor(() => expect(client.getQueryData<Whatsapp[]>(connectionsQuery.queryKey)?.[0].status).toBe("CONNECTED"));
    // a reconnect reads the list; the phone drops before that read is answered
    void client.refetchQueries({ queryKey: connectionsQuery.queryKey });
    await vi.waitFor(() => expect(reads).toHaveLength(2));
    client.setQueryData<Whatsapp[]>(connectionsQuery.queryKey, (old) =>
      applySession(old, { id: 1, status: "DISCONNECTED", qrcode: "", retries: 1, updatedAt: "2026-11-28T10:05:00.000Z" }),
    );
    reads[1]([w(1, { status: "CONNECTED", updatedAt: "2026-11-28T10:00:00.000Z" })]);
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(client.getQueryData<Whatsapp[]>(connectionsQuery.queryKey)?.[0].status).toBe("DISCONNECTED");
    expect(needsAttention((client.getQueryData<Whatsapp[]>(connectionsQuery.queryKey) ?? []).map((c) => c.status))).toBe(true);
    stop();
    client.clear();
  });
  it("a saved connection replaces its entry in place or joins the list; a deleted one leaves", () => {
    const list = [w(1), w(2)];
    expect(applyWhatsapp(list, { action: "update", whatsapp: w(1, { name: "B" }) })?.map((x) => x.name)).toEqual(["B", "Conexão 2"]);
    expect(applyWhatsapp(list, { action: "update", whatsapp: w(3) })?.map((x) => x.id)).toEqual([1, 2, 3]);
    expect(applyWhatsapp(list, { action: "delete", whatsappId: 1 })?.map((x) => x.id)).toEqual([2]);
  });
});

describe("connections: form rules (spec 001 §5)", () => {
  const base = {
    name: "Loja",
    typebot: { enabled: false, baseUrl: "", slug: "", apiKey: "", expiryMinutes: 30, endKeyword: "", unknownMessage: "", delayMs: 1000 },
  };
  it("the name takes 2 to 50 characters", () => {
    const msg = (name: string) => connectionForm.safeParse({ ...base, name }).error?.issues[0]?.message;
    expect(msg("")).toBe("Required");
    expect(msg("A")).toBe("Too Short!");
    expect(msg("x".repeat(51))).toBe("Too Long!");
    expect(connectionForm.safeParse(base).success).toBe(true);
  });
  it("enabled bot settings need the base URL and the slug", () => {
    expect(typebotIncomplete({ enabled: true, baseUrl: "", slug: "" })).toBe(true);
    expect(typebotIncomplete({ enabled: true, baseUrl: "https://t.example", slug: " " })).toBe(true);
    expect(typebotIncomplete({ enabled: true, baseUrl: "https://t.example", slug: "fluxo" })).toBe(false);
    expect(typebotIncomplete({ enabled: false, baseUrl: "", slug: "" })).toBe(false);
  });
  it("the API token is not a form field: it is write-only", () => {
    expect(Object.keys(connectionForm.shape)).not.toContain("token");
  });
  it("numbers show as +55 (DD) NNNNN-NNNN", () => {
    expect(formatPhone("5511987654321")).toBe("+55 (11) 98765-4321");
    expect(formatPhone("")).toBe("");
  });
});

describe("connections: texts", () => {
  it("known disconnect reasons are translated, unknown ones shown as they are", async () => {
    await setLanguage("pt-BR");
    const t = (k: string) => String(i18n.t(k));
    const exists = (k: string) => i18n.exists(k);
    expect(reasonText("logged out", t, exists)).toBe("Desconectada pelo painel");
    expect(reasonText("connectionClosed: retries exhausted", t, exists)).toBe("Não foi possível reconectar");
    expect(reasonText("unknown(999)", t, exists)).toBe("unknown(999)");
  });
  it("the screen's texts join English after the app's own English bundle loads, without replacing it", async () => {
    await setLanguage("en");
    expect(i18n.t("connections.title")).toBe("Connections");
    expect(i18n.t("menu.connections")).toBe("Connections");
    expect(i18n.t("common.save")).toBe("Save");
    await setLanguage("pt-BR");
    expect(i18n.t("connections.actions.retry")).toBe("Tentar novamente");
  });
});
