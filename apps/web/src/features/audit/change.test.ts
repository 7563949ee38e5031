import { describe, expect, it } from "vitest";
import { noteOf } from "../chat/components/MessageInput";
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

describe("noteOf", () => {
  it("the /nota prefix or the toggle makes a note; otherwise a message", () => {
    expect(noteOf("/nota cliente VIP", false)).toBe("cliente VIP");
    expect(noteOf("/NOTA cliente VIP", false)).toBe("cliente VIP");
    expect(noteOf(" ver depois ", true)).toBe("ver depois");
    expect(noteOf("olá", false)).toBeNull();
  });
});
