import { readdirSync, readFileSync } from "node:fs";

/** Latency figures of a run: count, throughput, p50/p95/p99/max in milliseconds. */
export function summarize(samples: number[], seconds?: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : Number.NaN);
  return {
    n: sorted.length,
    perSecond: seconds ? sorted.length / seconds : undefined,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

export function fmt(s: ReturnType<typeof summarize>): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const rate = s.perSecond !== undefined ? `${s.perSecond.toFixed(0)}/s  ` : "";
  return `n=${s.n}  ${rate}p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  max ${ms(s.max)}`;
}

/**
 * CPU seconds (user + system) of every `postgres` process on the machine, from /proc, with the time
 * of the ones that ended (the postmaster's reaped children, cutime + cstime): a backend that exits
 * no longer takes its time away from the sum.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, "utf8").trim() !== "postgres") continue;
      const fields = readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1].split(" ");
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
    } catch {}
  }
  return total;
}
