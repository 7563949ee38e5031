export const VOLUME_KEY = "volume";

/** The notification volume: 0 to 1 in steps of 0.1, default 1. */
export function readVolume(storage: Pick<Storage, "getItem"> = localStorage): number {
  const raw = storage.getItem(VOLUME_KEY);
  const n = raw === null ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : 1;
}
