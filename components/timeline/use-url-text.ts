"use client";
/**
 * A text field bound to a URL field with a pause: the box keeps its own text while the
 * reader types and writes it to the URL 300 ms after the last key; the URL wins only when
 * it changed from elsewhere (Back, a permalink, a "clear" button).
 */
import { useEffect, useRef, useState } from "react";

export function useUrlText(urlValue: string, write: (v: string) => void, delayMs = 300): [string, (v: string) => void] {
  const [text, setText] = useState(urlValue);
  const written = useRef(urlValue);
  useEffect(() => {
    if (urlValue !== written.current) {
      written.current = urlValue;
      setText(urlValue);
    }
  }, [urlValue]);
  useEffect(() => {
    const next = text.trim() ? text : "";
    if (next === written.current) return;
    const t = setTimeout(() => {
      written.current = next;
      write(next);
    }, delayMs);
    return () => clearTimeout(t);
  }, [text, write, delayMs]);
  return [text, setText];
}
