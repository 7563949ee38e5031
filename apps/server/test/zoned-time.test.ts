import { describe, expect, it } from "vitest";
import {
  addLocalDays,
  isTimeZone,
  parseLocalDateTime,
  startOfLocalDay,
  startOfLocalMonth,
  startOfLocalWeek,
  wallTime,
  zonedToUtc,
} from "../src/lib/zoned-time.js";

const SP = "America/Sao_Paulo";
const NY = "America/New_York";

describe("wall-clock time in the product's time zone", () => {
  it("São Paulo is UTC-3 (no DST since 2019): local midnight and the date-times clients send", () => {
    expect(zonedToUtc({ year: 2026, month: 11, day: 23 }, SP).toISOString()).toBe("2026-11-23T03:00:00.000Z");
    expect(parseLocalDateTime("2026-11-23T09:30:00", SP)?.toISOString()).toBe("2026-11-23T12:30:00.000Z");
    expect(parseLocalDateTime("2026-11-23T23:59:59", SP)?.toISOString()).toBe("2026-11-24T02:59:59.000Z");
    expect(parseLocalDateTime("2026-11-23", SP)?.toISOString()).toBe("2026-11-23T03:00:00.000Z");
  });

  it("an explicit offset wins; what is not a real date-time is undefined", () => {
    expect(parseLocalDateTime("2026-11-23T09:30:00Z", SP)?.toISOString()).toBe("2026-11-23T09:30:00.000Z");
    expect(parseLocalDateTime("2026-11-23T09:30:00-05:00", SP)?.toISOString()).toBe("2026-11-23T14:30:00.000Z");
    expect(parseLocalDateTime("2026-11-23T00:06:20.919Z", SP)?.toISOString()).toBe("2026-11-23T00:06:20.919Z");
    for (const bad of ["2026-02-30", "2026-13-01T00:00:00", "ontem", "2026-11-23T25:00", ""])
      expect(parseLocalDateTime(bad, SP)).toBeUndefined();
  });

  it("a day crossing UTC midnight belongs to its local day", () => {
    // 01:30 UTC on the 24th is still the 23rd, 22:30, in São Paulo
    const late = new Date("2026-11-24T01:30:00Z");
    expect(wallTime(late, SP)).toMatchObject({ year: 2026, month: 11, day: 23, hour: 22, minute: 30, weekday: 1 });
    expect(startOfLocalDay(late, SP).toISOString()).toBe("2026-11-23T03:00:00.000Z");
    expect(addLocalDays(late, 1, SP).toISOString()).toBe("2026-11-24T03:00:00.000Z");
  });

  it("weeks start on Monday, months on the 1st, in local time", () => {
    const sunday = new Date("2026-11-29T15:00:00Z");
    expect(startOfLocalWeek(sunday, SP).toISOString()).toBe("2026-11-23T03:00:00.000Z");
    expect(startOfLocalWeek(new Date("2026-11-23T04:00:00Z"), SP).toISOString()).toBe("2026-11-23T03:00:00.000Z");
    expect(startOfLocalMonth(sunday, SP).toISOString()).toBe("2026-11-01T03:00:00.000Z");
  });

  it("across a DST change (New York) a day still starts at its local midnight", () => {
    expect(zonedToUtc({ year: 2026, month: 3, day: 8 }, NY).toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(zonedToUtc({ year: 2026, month: 3, day: 9 }, NY).toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(addLocalDays(new Date("2026-03-08T12:00:00Z"), 1, NY).toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(parseLocalDateTime("2026-11-01T01:30:00", NY)?.toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });

  it("knows which zones exist", () => {
    expect(isTimeZone(SP)).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});
