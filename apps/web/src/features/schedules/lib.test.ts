import { describe, expect, it } from "vitest";
import { attendantOf, cut, localParts, searchSchedules } from "./lib";

const row = (over: object) =>
  ({
    id: 1,
    ticketId: 1,
    contactId: 1,
    customerNumber: "5511987654321",
    userId: 7,
    userName: "Ana",
    contactName: "Maria",
    whatsappId: 1,
    whatsappName: "Suporte",
    message: "Sua fatura vence amanhã",
    when: "2026-11-23T12:00:00.000Z",
    status: "pending",
    reason: "",
    cancelOnReply: true,
    sign: true,
    messageId: null,
    sentAt: null,
    createdAt: "2026-11-23T12:00:00.000Z",
    ...over,
  }) as Parameters<typeof searchSchedules>[0][number];

describe("schedules lib", () => {
  it("cuts at 45 characters", () => {
    expect(cut("a".repeat(45))).toBe("a".repeat(45));
    expect(cut("a".repeat(46))).toBe(`${"a".repeat(45)}…`);
  });
  it("searches message, contact number and attendant", () => {
    const rows = [row({ id: 1 }), row({ id: 2, message: "visita técnica", userName: "Beto", customerNumber: "5521999990000" })];
    expect(searchSchedules(rows, "fatura").map((r) => r.id)).toEqual([1]);
    expect(searchSchedules(rows, "beto").map((r) => r.id)).toEqual([2]);
    expect(searchSchedules(rows, "(21) 99999").map((r) => r.id)).toEqual([2]);
    expect(searchSchedules(rows, "").length).toBe(2);
  });
  it("names the attendant, or 'ID n', or 'ID -'", () => {
    const id = (x: string) => `ID ${x}`;
    expect(attendantOf({ userName: "Ana", userId: 7 }, id)).toBe("Ana");
    expect(attendantOf({ userName: null, userId: 7 }, id)).toBe("ID 7");
    expect(attendantOf({ userName: null, userId: null }, id)).toBe("ID -");
  });
  it("gives the local date and time of an instant in a zone", () => {
    expect(localParts(new Date("2026-11-24T02:30:00Z"), "America/Sao_Paulo")).toEqual({ date: "2026-11-23", time: "23:30" });
  });
});
