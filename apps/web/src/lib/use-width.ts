import { useCallback, useLayoutEffect, useState } from "react";

/**
 * An element's laid-out width in whole px, followed as it changes (a ResizeObserver): for layouts
 * that depend on the room a box has rather than on the window (a chat pane beside a list). Give the
 * returned callback as the element's `ref`. 0 until measured, and where nothing is laid out (jsdom).
 */
export function useWidth<T extends HTMLElement>(): [(el: T | null) => void, number, T | null] {
  const [el, setEl] = useState<T | null>(null);
  const [width, setWidth] = useState(0);
  const ref = useCallback((node: T | null) => setEl(node), []);
  useLayoutEffect(() => {
    if (!el) return;
    setWidth(Math.round(el.getBoundingClientRect().width));
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => setWidth(Math.round(el.getBoundingClientRect().width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return [ref, width, el];
}
