"use client";
/**
 * A paste anywhere on the page, outside another field (an input, a text box, a select, an
 * editable element, focused or pasted into): files pasted go to `onFiles`, text with something
 * besides blanks to `onText`; either way the browser's own paste is stopped. Nothing is taken
 * while `disabled`. Registered once; the latest callbacks are called.
 */
import { useEffect, useRef } from "react";

/** True when `el` is a field that takes a paste itself (another input, a text box, an editable element). */
function isField(el: Element | null): boolean {
  return !!el && el instanceof HTMLElement && !!el.closest("input, textarea, select, [contenteditable]:not([contenteditable='false'])");
}

export function usePagePaste(p: { disabled: boolean; onFiles(files: FileList): void; onText(text: string): void }) {
  const latest = useRef(p);
  latest.current = p;
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      const { disabled, onFiles, onText } = latest.current;
      if (disabled || isField(e.target as Element | null) || isField(document.activeElement)) return;
      const data = e.clipboardData;
      if (!data) return;
      if (data.files.length > 0) {
        e.preventDefault();
        onFiles(data.files);
        return;
      }
      const text = data.getData("text/plain");
      if (!text.trim()) return;
      e.preventDefault();
      onText(text);
    };
    document.addEventListener("paste", onPaste);
    return () => document.removeEventListener("paste", onPaste);
  }, []);
}
