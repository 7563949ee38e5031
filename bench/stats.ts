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
