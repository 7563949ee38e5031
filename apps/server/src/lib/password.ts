import { randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";

/**
 * scrypt N = 2^15, r = 8: 32 MiB of memory per hash. Above glibc's largest dynamic mmap threshold
 * (32 MiB), so each hash's block is mapped and unmapped: the memory goes back to the system. At
 * 2^14 (16 MiB) the freed blocks stayed in the malloc arena of each libuv thread that had hashed,
 * about 16 MiB of resident memory per thread for the process's life (measured: +64 MiB after a
 * few sign-ins). Older hashes keep their parameters (they travel with the hash) and are re-hashed
 * at the next sign-in (`needsRehash`).
 */
const N = 32768;
const R = 8;
const P = 1;
const KEYLEN = 32;
/** hashes running at once in this process: at most this many 32 MiB blocks, and libuv threads left for files */
const AT_ONCE = 2;

let running = 0;
const waiting: (() => void)[] = [];

async function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await new Promise((resolve, reject) =>
      scryptCb(password, salt, KEYLEN, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
    );
  } finally {
    // the slot passes to the next waiting hash, or is freed
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** scrypt with a random salt; the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

const DUMMY_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString("base64")}$${Buffer.alloc(KEYLEN).toString("base64")}`;

/** Constant-time check; a missing hash still costs one scrypt so timing does not reveal unknown e-mails. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const [alg, n, r, p, salt, key] = (stored ?? DUMMY_HASH).split("$");
  if (alg !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p));
  return stored != null && actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A stored hash made with other parameters than today's: re-hash it once the password is known. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(`scrypt$${N}$${R}$${P}$`);
}
