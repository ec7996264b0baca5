"use client";
/**
 * The SQL page's editor and result: one read-only query over the incident's views
 * (`POST /api/incidents/:id/sql`, lib/ask/run-ask.ts), the query in the URL (`q`) so a question
 * can be linked and survives a reload, Ctrl/Cmd+Enter runs it, the first 1,000 rows as a table
 * and the whole result (up to 100,000 rows) as a CSV download (`GET …/sql?q=&download=1`).
 */
import { useQuery } from "@tanstack/react-query";
import { parseAsString, useQueryState } from "nuqs";
import { useEffect, useState } from "react";
import { ApiClientError, fetchJson } from "@/components/data/fetch-json";
import type { AskResult } from "@/lib/ask/run-ask";
import css from "./ask-panel.module.css";

export function AskPanel({ incidentId, examples }: { incidentId: string; examples: Array<{ title: string; sql: string }> }) {
  const [q, setQ] = useQueryState("q", parseAsString.withDefault("").withOptions({ history: "push" }));
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  const api = `/api/incidents/${encodeURIComponent(incidentId)}/sql`;
  const query = q.trim();
  const result = useQuery({
    queryKey: ["ask", incidentId, query],
    queryFn: ({ signal }) =>
      fetchJson<AskResult>(api, { method: "POST", body: JSON.stringify({ q: query }), headers: { "content-type": "application/json" }, signal }),
    enabled: query.length > 0,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const run = () => void setQ(text.trim() || null);

  return (
    <div className={css.wrap}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <textarea
          className={`input mono ${css.editor}`}
          name="q"
          aria-label="SQL query"
          data-testid="sql-editor"
          spellCheck={false}
          rows={8}
          placeholder="SELECT kind, count(*) FROM events GROUP BY 1 ORDER BY 2 DESC"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              run();
            }
          }}
        />
        <div className={css.actions}>
          <button className="btn primary" type="submit" data-testid="sql-run" disabled={!text.trim()}>
            run
          </button>
          <span className="muted small">Ctrl+Enter (⌘+Enter) runs · one read-only query · at most 1,000 rows shown</span>
          {query && result.data ? (
            <a className="btn small" href={`${api}?${new URLSearchParams({ q: query, download: "1" })}`} download data-testid="sql-csv">
              download CSV
            </a>
          ) : null}
        </div>
      </form>
      {examples.length ? (
        <div className={css.examples}>
          <span className="muted small">examples:</span>
          {examples.map((x) => (
            <button key={x.title} type="button" className="btn small" onClick={() => setText(x.sql)} title={x.sql}>
              {x.title}
            </button>
          ))}
        </div>
      ) : null}
      {result.isFetching ? <p className="muted">running…</p> : null}
      {result.error ? (
        <p className="error-box" role="alert" data-testid="sql-error">
          {result.error instanceof ApiClientError ? result.error.message : String(result.error)}
        </p>
      ) : null}
      {result.data && !result.isFetching ? <ResultTable r={result.data} /> : null}
    </div>
  );
}

function ResultTable({ r }: { r: AskResult }) {
  return (
    <div data-testid="sql-result">
      <p className="muted small" data-testid="sql-summary">
        {r.rows.length.toLocaleString("en-US")} row{r.rows.length === 1 ? "" : "s"}
        {r.truncated ? ` shown, more left out (the first ${r.rowLimit.toLocaleString("en-US")}; the CSV holds up to 100,000)` : ""} · {r.ms} ms
      </p>
      <div className={`table-wrap ${css.result}`}>
        <table className="table">
          <thead>
            <tr>
              {r.columns.map((c, i) => (
                <th key={`${i}-${c.name}`} className={c.numeric ? "num" : undefined} title={c.type}>
                  {c.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {r.rows.map((row, i) => (
              <tr key={i}>
                {row.map((v, j) => (
                  <td key={j} className={r.columns[j]?.numeric ? "num mono" : "mono"}>
                    {v === null ? <span className="muted">NULL</span> : v}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
