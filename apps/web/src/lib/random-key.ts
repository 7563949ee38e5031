/** A random key of 128 bits (hex). crypto.randomUUID needs a secure context; a LAN address over plain HTTP has none. */
export function randomKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
