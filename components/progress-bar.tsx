/** A labelled progress bar; `value` 0..1, or null for an indeterminate bar. */
export function ProgressBar(p: { label: string; value: number | null; testId?: string; tone?: "ok" | "bad" }) {
  const v = p.value === null ? null : Math.min(1, Math.max(0, p.value));
  return (
    <div className={`progress${p.tone ? ` ${p.tone}` : ""}`} data-testid={p.testId}>
      <div className="progress-label">
        <span>{p.label}</span>
        {v !== null && <span className="mono">{Math.round(v * 100)}%</span>}
      </div>
      <div
        className={`progress-track${v === null ? " indeterminate" : ""}`}
        role="progressbar"
        aria-label={p.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={v === null ? undefined : Math.round(v * 100)}
      >
        <div className="progress-fill" style={{ width: v === null ? "30%" : `${v * 100}%` }} />
      </div>
    </div>
  );
}
