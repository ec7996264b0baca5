/**
 * Seeded pseudo-random numbers for the sample scenarios: the same seed gives the same
 * bundle, byte for byte. mulberry32 (Tommy Ettinger's public-domain 32-bit generator):
 * small, fast, good enough for jitter and names; not for anything secret.
 */
export interface Prng {
  /** uniform in [0, 1) */
  next(): number;
  /** integer in [lo, hi] */
  int(lo: number, hi: number): number;
  /** uniform in [lo, hi) */
  float(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  /** `n` lowercase hex digits */
  hex(n: number): string;
  /** RFC 4122 version-4 shaped UUID */
  uuid(): string;
  /** Kubernetes generated-name suffix (`k8s.io/apimachinery/pkg/util/rand` alphabet, no vowels) */
  suffix(n: number): string;
}

/** A generator for `seed` (any number; the integer part is used). */
export function createPrng(seed: number): Prng {
  let a = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const hex = (n: number) => {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[int(0, 15)];
    return s;
  };
  const ALNUM = "bcdfghjklmnpqrstvwxz2456789";
  return {
    next,
    int,
    float: (lo, hi) => lo + next() * (hi - lo),
    pick: (items) => items[int(0, items.length - 1)],
    hex,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[int(0, 3)]}${hex(3)}-${hex(12)}`,
    suffix: (n) => {
      let s = "";
      for (let i = 0; i < n; i++) s += ALNUM[int(0, ALNUM.length - 1)];
      return s;
    },
  };
}
