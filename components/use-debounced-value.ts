"use client";
/**
 * `value` once it has stayed the same (by identity: pass a memoised object) for `delayMs`; null
 * until the first value settles. Debounces a query's key, so the query itself runs as usual.
 */
import { useEffect, useState } from "react";

export function useDebouncedValue<T>(value: T, delayMs: number): T | null {
  const [settled, setSettled] = useState<T | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setSettled(() => value), delayMs);
    return () => clearTimeout(t);
  }, [value, delayMs]);
  return settled;
}
