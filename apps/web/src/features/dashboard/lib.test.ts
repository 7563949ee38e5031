import { describe, expect, it } from "vitest";
import { formatDuration, mergeTimes, timesCsv, weekdayNames } from "./lib";

describe("dashboard helpers", () => {
  it("reads durations as people do", () => {
    expect(formatDuration(null)).toBe("—");
    expect(formatDuration(45)).toBe("45 s");
    expect(formatDuration(750)).toBe("13 min");
    expect(formatDuration(3900)).toBe("1 h 05 min");
    expect(formatDuration(2 * 86400 + 3 * 3600)).toBe("2 d 3 h");
  });

  it("exports the per-agent table as CSV, one row per agent with both figures in seconds", () => {
    const s = (median: number, count: number) => ({ median, p90: median * 2, count });
    const rows = mergeTimes(
      { overall: s(1, 1), byAgent: [{ userId: 1, name: 'Ana, "A"', ...s(120, 2) }], byQueue: [] },
      {
        overall: s(1, 1),
        byAgent: [
          { userId: 1, name: 'Ana, "A"', ...s(1800, 1) },
          { userId: 2, name: "=Bruno", ...s(60, 1) },
        ],
        byQueue: [],
      },
      "agent",
      "",
    );
    expect(timesCsv(rows, ["agent", "frt", "frt p90", "n", "res", "res p90", "n"])).toBe(
      'agent,frt,frt p90,n,res,res p90,n\r\n"Ana, ""A""",120,240,2,1800,3600,1\r\n\'=Bruno,,,0,60,120,1\r\n',
    );
  });

  it("neutralises every cell a spreadsheet would run as a formula (OWASP: = + - @ tab CR)", () => {
    const s = (median: number, count: number) => ({ median, p90: median * 2, count });
    const names = ["=1+1", "+1", "-1", "@SUM(A1)", "\t=cmd", "\r=cmd", "Ana"];
    const rows = mergeTimes(
      { overall: s(1, 1), byAgent: names.map((name, i) => ({ userId: i, name, ...s(60, 1) })), byQueue: [] },
      { overall: s(1, 1), byAgent: [], byQueue: [] },
      "agent",
      "",
    );
    const cells = timesCsv(rows, ["agent"])
      .split("\r\n")
      .slice(1, -1)
      .map((line) => line.split(",")[0]);
    expect(cells.sort()).toEqual(["'+1", "'-1", "'=1+1", "'@SUM(A1)", "'\t=cmd", '"\'\r=cmd"', "Ana"].sort());
  });

  it("names the weekdays from Monday", () => {
    expect(weekdayNames("en")[0]).toBe("Mon");
    expect(weekdayNames("en")[6]).toBe("Sun");
  });
});
