import { describe, expect, it } from "vitest";
import { absoluteUrl, cut, expectedFinish, isImageUrl, progressOf, searchRows, statusColor } from "./lib";

describe("the Disparos screen's rules", () => {
  it("cuts the message at 45 characters, a dash when empty", () => {
    expect(cut("a".repeat(45))).toBe("a".repeat(45));
    expect(cut("a".repeat(46))).toBe(`${"a".repeat(45)}…`);
    expect(cut("  ")).toBe("-");
    expect(cut(null)).toBe("-");
  });

  it("previews png, jpg, jpeg, webp and gif; prefixes relative URLs with the server's address", () => {
    for (const u of ["/media/x.png", "https://a.b/c.JPG", "x.jpeg?v=1", "y.webp", "z.gif"]) expect(isImageUrl(u)).toBe(true);
    expect(isImageUrl("/media/doc.pdf")).toBe(false);
    expect(absoluteUrl("/media/x.png", "https://balcao.example")).toBe("https://balcao.example/media/x.png");
    expect(absoluteUrl("https://cdn.example/x.png", "https://balcao.example")).toBe("https://cdn.example/x.png");
  });

  it("colours: cancelado black, a enviar yellow, com erro red, enviado green, unknown grey", () => {
    expect(statusColor("cancelado")).toBe("#000000");
    expect(statusColor("enviado")).toBe("#2e7d32");
    expect(statusColor("com erro")).toBe("#d32f2f");
    expect(statusColor("a enviar")).toBe("#f5c518");
    expect(statusColor("enviando")).toBe("#9e9e9e");
  });

  it("progress counts sent, errors and cancelled as done; the finish is the latest connection's", () => {
    expect(progressOf({ cancelado: 1, "a enviar": 5, "com erro": 1, enviado: 2, enviando: 1 })).toEqual({
      done: 4,
      total: 10,
      percent: 40,
      remaining: 6,
    });
    const c = (at: string | null) => ({ expectedFinishAt: at }) as never;
    expect(expectedFinish([c("2026-11-23T12:00:00Z"), c(null), c("2026-11-24T08:00:00Z")])).toBe("2026-11-24T08:00:00Z");
    expect(expectedFinish([])).toBeNull();
  });

  it("search filters the loaded page by message, number and URL", () => {
    const rows = [
      { message: "Fatura de novembro", number: "5511999990001", url: "" },
      { message: "Promoção", number: "5511999990002", url: "/media/banner.png" },
    ];
    expect(searchRows(rows, "fatura")).toHaveLength(1);
    expect(searchRows(rows, "0002")).toHaveLength(1);
    expect(searchRows(rows, "banner")).toHaveLength(1);
    expect(searchRows(rows, "")).toHaveLength(2);
  });
});
