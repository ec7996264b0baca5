"use client";
/**
 * Inline form that names a node by hand (`PATCH /api/incidents/:id/nodes/:nodeId`,
 * lib/incidents/rename-node.ts): a "rename" button opens a text box with the current name;
 * Enter saves, Escape cancels. On success the page reloads its data; a refused name (taken by
 * another node, empty, too long) is said next to the box.
 */
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { fetchJson } from "@/components/data/fetch-json";
import styles from "./node-name.module.css";

export function RenameNodeForm(p: { incidentId: string; nodeId: number; name: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(p.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (open) inputRef.current?.select();
  }, [open]);
  // the page's data came back with the new name
  useEffect(() => setValue(p.name), [p.name]);

  const close = () => {
    setOpen(false);
    setError(null);
    setValue(p.name);
    // back to the button, so keyboard users do not lose their place
    setTimeout(() => buttonRef.current?.focus(), 0);
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const name = value.trim();
    if (!name) return setError("give the node a name");
    setBusy(true);
    setError(null);
    try {
      await fetchJson(`/api/incidents/${encodeURIComponent(p.incidentId)}/nodes/${p.nodeId}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
      setOpen(false);
      router.refresh();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <button ref={buttonRef} type="button" className="btn small" onClick={() => setOpen(true)} aria-label={`rename node ${p.name}`} data-testid="rename-node">
        rename
      </button>
    );
  }
  return (
    <form className={styles.form} onSubmit={save} data-testid="rename-node-form" onKeyDown={(e) => e.key === "Escape" && close()}>
      <label className="sr-only" htmlFor={`rename-${p.nodeId}`}>
        new name of node {p.name}
      </label>
      <input
        id={`rename-${p.nodeId}`}
        ref={inputRef}
        className="input mono"
        value={value}
        maxLength={253}
        onChange={(e) => setValue(e.target.value)}
        disabled={busy}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `rename-${p.nodeId}-error` : undefined}
      />
      <button type="submit" className="btn small primary" disabled={busy}>
        save
      </button>
      <button type="button" className="btn small" onClick={close} disabled={busy}>
        cancel
      </button>
      {error && (
        <span id={`rename-${p.nodeId}-error`} className={styles.error} role="alert" data-testid="rename-node-error">
          {error}
        </span>
      )}
    </form>
  );
}
