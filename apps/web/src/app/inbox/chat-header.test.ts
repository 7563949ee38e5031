import { describe, expect, it } from "vitest";
import { HEADER_FIXED_PX, headerActionsMode, iconsInView, NAME_ROOM_PX, stackedInView } from "./ChatHeader";

describe("the chat header's actions", () => {
  // the chat pane beside the ticket list at 1366 px is about 700 px wide
  const pane = 700;

  it("text buttons when they fit beside the name", () => {
    // Agendar, Transferir, Finalizar: about 350 px
    expect(headerActionsMode({ width: pane, fullWidth: 350, count: 3, nameWidth: 360 })).toBe("full");
  });

  it("icons when Resumo, PIX and Contrato would squeeze the name: the name keeps its room", () => {
    const mode = headerActionsMode({ width: pane, fullWidth: 630, count: 6, nameWidth: 290 });
    expect(mode).toBe("icon");
    // what the name is left with: all of a 290 px name
    expect(pane - HEADER_FIXED_PX - 6 * 44).toBeGreaterThanOrEqual(290);
  });

  it("an overflow menu where even the icons would not leave the name its room; Finalizar stays", () => {
    expect(headerActionsMode({ width: 400, fullWidth: 630, count: 6, nameWidth: 290 })).toBe("menu");
    expect(iconsInView({ width: 400, count: 6, nameWidth: 290 })).toBe(1);
    // a little wider: Transferir stays beside Finalizar
    expect(iconsInView({ width: 470, count: 6, nameWidth: 290 })).toBe(2);
  });

  it("a short name needs only its own width; a long one at most NAME_ROOM_PX", () => {
    expect(headerActionsMode({ width: 560, fullWidth: 350, count: 3, nameWidth: 60 })).toBe("full");
    const long = headerActionsMode({ width: HEADER_FIXED_PX + NAME_ROOM_PX + 350, fullWidth: 350, count: 3, nameWidth: 900 });
    expect(long).toBe("full");
  });

  it("text buttons until the header is measured", () => {
    expect(headerActionsMode({ width: 0, fullWidth: 0, count: 6, nameWidth: 0 })).toBe("full");
  });

  it("on a phone, the actions with their names that fit, the rest under Mais", () => {
    expect(stackedInView(3, 375)).toBe(3);
    expect(stackedInView(4, 375)).toBe(4);
    // six actions: Agendar, Transferir, Finalizar beside Mais
    expect(stackedInView(6, 375)).toBe(3);
    expect(stackedInView(6, 0)).toBe(6);
  });
});
