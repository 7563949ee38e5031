import { type DependencyList, useEffect, useMemo, useState } from "react";

/** The value, once it has stayed unchanged for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/**
 * An object made once (again when `deps` change) and disposed when the component leaves or
 * `deps` change. Its `dispose` must only stop what is pending: React's StrictMode runs the effect's
 * cleanup once on mount and keeps using the same object.
 */
export function useDisposable<T extends { dispose(): void }>(make: () => T, deps: DependencyList = []): T {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what `make` depends on
  const value = useMemo(make, deps);
  useEffect(() => () => value.dispose(), [value]);
  return value;
}

/** The text a search call sends: nothing until `min` characters are typed. */
export function searchTerm(raw: string, min: number): string {
  const t = raw.trim();
  return t.length >= min ? t : "";
}

/** Two letters for an avatar: first and last word initials, or the first two letters of one word. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  if (words.length === 1) return words[0].slice(0, 2).toUpperCase();
  return (words[0][0] + words[words.length - 1][0]).toUpperCase();
}
