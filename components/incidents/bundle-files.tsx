/**
 * One bundle: status, size, counts, its warnings (files not read or read in part, lines
 * skipped, events on no node: lib/incidents/bundle-warnings.ts), and the per-file table (path,
 * kind, format, node, lines, parsed, skipped by reason, status and reason) so reviewers see
 * exactly what was and was not understood; a file's unread lines show their templates (their shape).
 */
import { plural } from "@/lib/detect/numbers";
import { bundleWarnings } from "@/lib/incidents/bundle-warnings";
import type { TBundleView } from "@/lib/incidents/get-incident";
import { fmtBytes, fmtCount, fmtUtc } from "@/lib/view/format";
import { BundleProgress } from "./bundle-progress";
import { bundleTiming } from "./bundle-timing";

export function BundleFiles({ b }: { b: TBundleView }) {
  const done = b.status === "ready" || b.status === "failed";
  const totals = b.files.reduce((t, f) => ({ lines: t.lines + f.lines, parsed: t.parsed + f.parsed, skipped: t.skipped + f.skipped }), {
    lines: 0,
    parsed: 0,
    skipped: 0,
  });
  const warnings = bundleWarnings(b);
  return (
    <section className="panel bundle" id={`bundle-${b.id}`} data-testid="bundle" data-status={b.status}>
      <header className="bundle-head">
        <h3 className="mono">{b.fileName}</h3>
        <span className={`status status-${b.status}`}>{b.status}</span>
        {warnings.length > 0 && <span className="status status-warn">{plural(warnings.length, "warning")}</span>}
        <span className="muted">
          {fmtBytes(b.byteSize)} · uploaded {fmtUtc(b.createdAt, { ms: false })} UTC
          {b.collector ? ` · collector ${b.collector}` : ""}
          {bundleTiming(b) ? ` · ${bundleTiming(b)}` : ""}
        </span>
        {givenOptions(b.options) && <span className="muted small mono">{givenOptions(b.options)}</span>}
      </header>
      {!done && <BundleProgress bundleId={b.id} initial={{ status: b.status, phase: b.phase, progress: b.progress }} />}
      {b.error && <p className="bad error-box">{b.error}</p>}
      {warnings.length > 0 && (
        <ul className="warn-box" data-testid="bundle-warnings">
          {warnings.map((w) => (
            <li key={w.kind} data-kind={w.kind}>
              {w.text}
            </li>
          ))}
        </ul>
      )}
      {b.duplicateOf && (
        <p className="muted" data-testid="bundle-duplicate">
          Same upload as bundle <span className="mono">{b.duplicateOf}</span> (same sha256): not ingested again.
        </p>
      )}
      {b.files.length > 0 && (
        <div className="table-wrap">
          <table className="table files" data-testid="files-table">
            <thead>
              <tr>
                <th>#</th>
                <th>path</th>
                <th>kind</th>
                <th>format</th>
                <th>node</th>
                <th className="num">lines</th>
                <th className="num">parsed</th>
                <th className="num" title="records: with a time of their own / counted from an age / without a time">
                  records
                </th>
                <th className="num">skipped</th>
                <th>skipped by reason</th>
                <th title="secrets replaced before storage, by kind">redacted</th>
                <th>time</th>
                <th>status</th>
              </tr>
            </thead>
            <tbody>
              {b.files.map((f) => (
                <tr key={f.id} data-testid="file-row" className={f.status !== "read" ? "dim" : ""}>
                  <td className="num muted">{f.ord + 1}</td>
                  <td className="mono path" title={f.path}>
                    {f.path}
                  </td>
                  <td>{f.kind}</td>
                  <td className="mono small">{f.format}</td>
                  <td className="mono small">{f.nodeName ?? "—"}</td>
                  <td className="num">{fmtCount(f.lines)}</td>
                  <td className="num">{fmtCount(f.parsed)}</td>
                  <td className="num" data-testid="file-records">
                    {fmtCount(f.records)}
                    <div className="muted small" data-testid="file-times">
                      {fmtCount(f.records - f.noTimestamp - f.aged + f.sinceBoot)} timed
                      {f.aged > 0 && ` · ${fmtCount(f.aged)} from ages`}
                      {f.noTimestamp > f.sinceBoot && ` · ${fmtCount(f.noTimestamp - f.sinceBoot)} untimed`}
                    </div>
                  </td>
                  <td className={`num${f.skipped ? " warn" : ""}`}>{fmtCount(f.skipped)}</td>
                  <td className="small">
                    {Object.entries(f.skippedByReason)
                      .filter(([, n]) => n > 0)
                      .map(([k, n]) => `${k} ${fmtCount(n)}`)
                      .join(", ") || <span className="muted">—</span>}
                    {f.outOfOrder > 0 && <div className="muted">{fmtCount(f.outOfOrder)} out of order</div>}
                    {f.unreadPatterns.length > 0 && (
                      <details data-testid="file-unread-patterns">
                        <summary title="the lines no format read, grouped by shape (numbers, ids and paths as <*>)">
                          {plural(f.unreadPatterns.length, "template")} of the unread lines
                        </summary>
                        <ul className="mono unread-patterns">
                          {f.unreadPatterns.map((p) => (
                            <li key={p.firstLine} data-testid="file-unread-pattern">
                              {fmtCount(p.count)} × {p.template} <span className="muted">(first line {p.firstLine})</span>
                            </li>
                          ))}
                        </ul>
                      </details>
                    )}
                  </td>
                  <td className="small" data-testid="file-redacted">
                    {Object.entries(f.redacted)
                      .filter(([, n]) => n > 0)
                      .map(([k, n]) => `${k} ${fmtCount(n)}`)
                      .join(", ") || <span className="muted">—</span>}
                  </td>
                  <td className="small">
                    {f.timeZone}
                    {f.clockOffsetMs ? (
                      <div
                        className="muted"
                        data-testid="file-clock-offset"
                        title="This file's clock (Kubernetes events are stamped by the control plane) differed from the node's: this much was added to every time in this file so it lines up with the node's logs (estimated from the sandbox failures both record, or given with the upload)."
                      >
                        shifted {f.clockOffsetMs > 0 ? "+" : "−"}
                        {Math.abs(f.clockOffsetMs / 1000).toFixed(1)} s to the node clock
                      </div>
                    ) : null}
                    {f.yearSource ? <div className="muted">year: {f.yearSource}</div> : null}
                  </td>
                  <td>
                    <span className={`status status-${f.status}`}>{f.status}</span>
                    {f.reason && <div className="muted small">{f.reason}</div>}
                    {f.duplicateOf && <div className="muted small">same as {f.duplicateOf}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td />
                <td colSpan={4} className="muted">
                  {b.files.length} files
                </td>
                <td className="num">{fmtCount(totals.lines)}</td>
                <td className="num">{fmtCount(totals.parsed)}</td>
                <td className="num">{fmtCount(totals.skipped)}</td>
                <td colSpan={4} />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}

/** The upload options the reviewer gave (`node=… tz=…`), without what the server records (`uploads`); "" for none. */
function givenOptions(options: Record<string, unknown>): string {
  return Object.entries(options)
    .filter(([k, v]) => k !== "uploads" && v !== null && v !== "" && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : String(v)}`)
    .join(" ");
}
