import { DISPARO_PACE_DEFAULTS, renderDisparo } from "@balcao/contract";
import { describe, expect, it } from "vitest";
import { type DisparoPace, decidePace, estimateFinish, type PaceState, windowCheck } from "../src/modules/pacing/pacing.js";
import { optOutKey } from "../src/modules/disparos/service.js";

/** The disparo pace as a pure function, the text rendering and the opt-out words: each rule in a line or two. */

const SP = "America/Sao_Paulo";
// 2026-11-23 09:00 in São Paulo (UTC-3)
const T9 = Date.UTC(2026, 10, 23, 12, 0, 0);
// the pure pace at a cap of 500 a day (the defaults now take the connection's own cap, 1000)
const pace: DisparoPace = { ...DISPARO_PACE_DEFAULTS, dailyCap: 500 };
const fresh: PaceState = { nextAt: null, day: "", dayCount: 0, streak: 0 };
const take = (p: DisparoPace, s: PaceState, now: number, r = 0.5) => {
  const d = decidePace(p, s, now, SP, () => r);
  if (!d.go) throw new Error(`expected to go, waits for ${d.why}`);
  return d.state;
};

describe("the disparo pace", () => {
  it("the first row goes at once; the next waits 8–15 s, jittered by the random draw", () => {
    expect(take(pace, fresh, T9, 0).nextAt).toBe(T9 + 8_000);
    expect(take(pace, fresh, T9, 1).nextAt).toBe(T9 + 15_000);
    const s = take(pace, fresh, T9, 0.5);
    expect(s.nextAt).toBe(T9 + 11_500);
    expect(decidePace(pace, s, T9 + 11_499, SP, Math.random)).toEqual({ go: false, at: T9 + 11_500, why: "pace" });
    expect(decidePace(pace, s, T9 + 11_500, SP, Math.random).go).toBe(true);
  });

  it("every 20th row is followed by the longer pause (3–6 min), then the short interval again", () => {
    let s = fresh;
    let now = T9;
    const gaps: number[] = [];
    for (let i = 0; i < 41; i++) {
      s = take(pace, s, now, 0);
      gaps.push((s.nextAt ?? now) - now);
      now = s.nextAt ?? now;
    }
    expect(gaps.filter((g) => g === 180_000)).toHaveLength(2);
    expect(gaps[19]).toBe(180_000);
    expect(gaps[39]).toBe(180_000);
    expect(gaps.filter((g) => g === 8_000)).toHaveLength(39);
  });

  it("the daily cap stops the day's rows and opens again at local midnight (São Paulo's, not UTC's)", () => {
    const capped = { ...pace, dailyCap: 2, intervalMinMs: 0, intervalMaxMs: 0 };
    let s = take(capped, fresh, T9);
    s = take(capped, s, T9);
    expect(s.dayCount).toBe(2);
    const d = decidePace(capped, s, T9 + 1000, SP, Math.random);
    // 2026-11-24 00:00 in São Paulo is 03:00 UTC
    expect(d).toEqual({ go: false, at: Date.UTC(2026, 10, 24, 3, 0, 0), why: "cap" });
    const next = take(capped, s, Date.UTC(2026, 10, 24, 3, 0, 0));
    expect(next).toMatchObject({ day: "2026-11-24", dayCount: 1 });
  });

  it("sending hours: outside them the row waits for the next opening; a window may cross midnight", () => {
    const win = { ...pace, windowStart: "10:00", windowEnd: "20:00" };
    // 09:00: today at 10:00
    expect(decidePace(win, fresh, T9, SP, Math.random)).toEqual({ go: false, at: Date.UTC(2026, 10, 23, 13, 0, 0), why: "window" });
    // 21:00 local: tomorrow at 10:00
    expect(decidePace(win, fresh, Date.UTC(2026, 10, 24, 0, 0, 0), SP, Math.random)).toEqual({
      go: false,
      at: Date.UTC(2026, 10, 24, 13, 0, 0),
      why: "window",
    });
    expect(decidePace(win, fresh, Date.UTC(2026, 10, 23, 13, 0, 0), SP, Math.random).go).toBe(true);
    // 20:00 is closed already
    expect(windowCheck(win, Date.UTC(2026, 10, 23, 23, 0, 0), SP).open).toBe(false);
    const night = { windowStart: "22:00", windowEnd: "06:00" };
    expect(windowCheck(night, Date.UTC(2026, 10, 24, 4, 0, 0), SP).open).toBe(true); // 01:00
    expect(windowCheck(night, T9, SP)).toEqual({ open: false, opensAt: Date.UTC(2026, 10, 24, 1, 0, 0) }); // 22:00 today
    // no hours set: always open
    expect(windowCheck(pace, T9, SP).open).toBe(true);
  });

  it("a capped day that ends outside the sending hours waits for the next day's opening", () => {
    const p = { ...pace, dailyCap: 1, windowStart: "08:00", windowEnd: "20:00" };
    const s = take(p, fresh, T9);
    expect(decidePace(p, s, T9 + 60_000, SP, Math.random)).toEqual({ go: false, at: Date.UTC(2026, 10, 24, 11, 0, 0), why: "cap" });
  });

  it("the expected finish follows the pace: 100 rows at 8–15 s with a pause every 20", () => {
    const finish = estimateFinish(pace, fresh, 100, T9, SP);
    // 100 rows: 95 average gaps of 11.5 s and 4 long pauses of 4.5 min (the last row needs no gap after it)
    expect(finish - T9).toBe(95 * 11_500 + 4 * 270_000);
    // 600 rows at 500 a day: the last 100 go the next day
    const days = estimateFinish({ ...pace, intervalMinMs: 0, intervalMaxMs: 0, pauseEvery: 0 }, fresh, 600, T9, SP);
    expect(days).toBe(Date.UTC(2026, 10, 24, 3, 0, 0));
    expect(estimateFinish(pace, fresh, 0, T9, SP)).toBe(T9);
    // 100 000 rows at 500 a day: about 200 days (past a month of days the rate so far is extrapolated)
    const long = estimateFinish({ ...pace, windowStart: "08:00", windowEnd: "20:00" }, fresh, 100_000, T9, SP);
    expect(Math.round((long - T9) / 86_400_000)).toBeGreaterThanOrEqual(198);
    expect(Math.round((long - T9) / 86_400_000)).toBeLessThanOrEqual(201);
  });
});

describe("a disparo's text", () => {
  it("{nome} and {primeiro_nome} from the contact; without a name no gap is left", () => {
    expect(renderDisparo("Olá {primeiro_nome}, sua fatura, {nome}.", { name: "Maria da Silva" }, 1)).toBe(
      "Olá Maria, sua fatura, Maria da Silva.",
    );
    expect(renderDisparo("Olá {nome}, tudo bem?", null, 1)).toBe("Olá, tudo bem?");
  });

  it("spintax picks one variant per row, the same every time for one row, and varies across rows", () => {
    const t = "{Olá|Oi|Bom dia} {nome}! {Sua fatura|O boleto} {está disponível|chegou}.";
    const once = renderDisparo(t, { name: "Ana" }, 42);
    expect(renderDisparo(t, { name: "Ana" }, 42)).toBe(once);
    expect(once).toMatch(/^(Olá|Oi|Bom dia) Ana! (Sua fatura|O boleto) (está disponível|chegou)\.$/);
    const seen = new Set(Array.from({ length: 50 }, (_, i) => renderDisparo(t, { name: "Ana" }, i)));
    expect(seen.size).toBeGreaterThan(5);
  });

  it("nested groups and other braces", () => {
    expect(renderDisparo("{a|{b|c}}", null, 3)).toMatch(/^[abc]$/);
    expect(renderDisparo("código {pix}", null, 3)).toBe("código {pix}");
  });
});

describe("opt-out words", () => {
  it("case, accents, spaces and punctuation around the word are ignored", () => {
    for (const w of ["SAIR", "sair", " Sair! ", "sáir", "SAIR."]) expect(optOutKey(w)).toBe("SAIR");
    expect(optOutKey("quero sair")).toBe("QUERO SAIR");
  });
});
