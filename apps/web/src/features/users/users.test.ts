import { describe, expect, it } from "vitest";
import { visibleUsers } from "./api/users";

describe("users", () => {
  it("users named exactly 'bot' are hidden", () => {
    const u = (name: string) => ({ id: name.length, name, email: "", profile: "user" as const, queues: [], createdAt: "", updatedAt: "" });
    expect(visibleUsers([u("bot"), u("Bot"), u("robot")]).map((x) => x.name)).toEqual(["Bot", "robot"]);
  });
});
