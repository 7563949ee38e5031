import { describe, expect, it } from "vitest";
import { changeOf } from "./components/AuditPage";

describe("changeOf", () => {
  it("shows a setting as key: before → after, and other changes per key", () => {
    expect(changeOf({ before: { key: "autoCloseHours", value: "24" }, after: { key: "autoCloseHours", value: "12" } })).toBe(
      "autoCloseHours: 24 → 12",
    );
    expect(changeOf({ before: { profile: "user" }, after: { profile: "superv" } })).toBe("profile: user → superv");
    expect(changeOf({ after: { rows: 3 } })).toBe("rows: 3");
    expect(changeOf({})).toBe("");
  });
});
