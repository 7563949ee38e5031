import { describe, expect, it } from "vitest";
import { noteOf } from "./components/MessageInput";

describe("noteOf", () => {
  it("the /nota prefix or the toggle makes a note; otherwise a message", () => {
    expect(noteOf("/nota cliente VIP", false)).toBe("cliente VIP");
    expect(noteOf("/NOTA cliente VIP", false)).toBe("cliente VIP");
    expect(noteOf(" ver depois ", true)).toBe("ver depois");
    expect(noteOf("olá", false)).toBeNull();
  });
});
