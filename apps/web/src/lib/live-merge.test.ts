import type { InfiniteData } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { keepNewer, mergePages, shareNewer } from "./live-merge";

const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 9, 0, s)).toISOString();

describe("a list read that lands after a live event", () => {
  it("keeps the event's newer copy (a new QR code cleared the number) and takes the read's newer ones", () => {
    const cached = [
      { id: 1, updatedAt: at(10), status: "qrcode", number: "" },
      { id: 2, updatedAt: at(1), status: "CONNECTED", number: "5511" },
    ];
    const read = [
      { id: 1, updatedAt: at(5), status: "CONNECTED", number: "5521998765432" },
      { id: 2, updatedAt: at(7), status: "DISCONNECTED", number: "5511" },
    ];
    expect(keepNewer(cached, read)).toEqual([cached[0], read[1]]);
  });

  it("follows the read for what it removed or added, and answers the read itself when nothing was newer", () => {
    const cached = [{ id: 1, updatedAt: at(1) }];
    const read = [{ id: 3, updatedAt: at(2) }];
    expect(keepNewer(cached, read)).toBe(read);
    expect(shareNewer(undefined, read)).toEqual(read);
  });
});

type Msg = { id: number; updatedAt: string; body: string; ack: number };
const pages = (...ps: Msg[][]): InfiniteData<{ messages: Msg[]; count: number; hasMore: boolean }, unknown> => ({
  pages: ps.map((messages) => ({ messages, count: 100, hasMore: false })),
  pageParams: ps.map((_, i) => i + 1),
});

describe("a chat's pages read while messages arrive", () => {
  it("a message the event added after the read stays at the end of the newest page, counted", () => {
    const cached = pages([
      { id: 10, updatedAt: at(1), body: "oi", ack: 0 },
      { id: 11, updatedAt: at(3), body: "Escrevi enquanto a página abria", ack: 0 },
    ]);
    const read = pages([{ id: 10, updatedAt: at(1), body: "oi", ack: 0 }]);
    const merged = mergePages(cached, read);
    expect(merged.pages[0].messages.map((m) => m.body)).toEqual(["oi", "Escrevi enquanto a página abria"]);
    expect(merged.pages[0].count).toBe(101);
  });

  it("each message keeps its newest copy (an ack the event brought); older messages the read left out are not brought back", () => {
    const cached = pages([
      { id: 5, updatedAt: at(1), body: "antiga", ack: 3 },
      { id: 10, updatedAt: at(9), body: "oi", ack: 3 },
    ]);
    const read = pages([
      { id: 10, updatedAt: at(4), body: "oi", ack: 1 },
      { id: 12, updatedAt: at(5), body: "nova", ack: 0 },
    ]);
    const merged = mergePages(cached, read);
    expect(merged.pages[0].messages).toEqual([
      { id: 10, updatedAt: at(9), body: "oi", ack: 3 },
      { id: 12, updatedAt: at(5), body: "nova", ack: 0 },
    ]);
    expect(merged.pages[0].count).toBe(100);
  });
});
