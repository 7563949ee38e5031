/**
 * A per-process cache of reads by key, kept `ttlMs`: the promise is kept, so the callers that find
 * an entry missing or expired together wait for one read; a failed read is dropped. Callers drop
 * or set entries from the events that change what was read (`onEverywhere`).
 */
export class PromiseCache<K, V> {
  private readonly entries = new Map<K, { at: number; value: Promise<V> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly load: (key: K) => Promise<V>,
  ) {}

  get(key: K): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const value = this.load(key);
    const entry = { at: Date.now(), value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** What is known now (from an event), kept as a fresh read. */
  set(key: K, value: V): void {
    this.entries.set(key, { at: Date.now(), value: Promise.resolve(value) });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
