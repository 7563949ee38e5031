import { describe, expect, it } from "vitest";
import { formatPhone } from "./phone";

describe("formatPhone", () => {
  it("shows Brazilian numbers as +55 (DDD) XXXXX-XXXX, with or without marks", () => {
    expect(formatPhone("5511987654321")).toBe("+55 (11) 98765-4321");
    expect(formatPhone("+55 11 98765-4321")).toBe("+55 (11) 98765-4321");
    expect(formatPhone("551134567890")).toBe("+55 (11) 3456-7890");
  });
  it("keeps other countries' digits with a plus, and nothing as nothing", () => {
    expect(formatPhone("14155552671")).toBe("+14155552671");
    expect(formatPhone("")).toBe("");
    expect(formatPhone(null)).toBe("");
  });
});
