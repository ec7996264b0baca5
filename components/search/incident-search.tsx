"use client";
/**
 * The incident page's search box: one query over every node and boot of the incident
 * (`GET /api/incidents/:id/search`, lib/search/search-incident.ts), answered with exact counts
 * per node boot and each boot's first hits, every hit a link into its boot's timeline with the
 * event selected. The query lives in the URL (`search`, and `match=substring` for parts of
 * words), so a search can be linked and survives a reload.
 */
import { useQuery } from "@tanstack/react-query";
import { parseAsString, parseAsStringLiteral, useQueryStates } from "nuqs";
import Link from "next/link";
import { useEffect, useState } from "react";
import { fetchJson, qs } from "@/components/data/fetch-json";
import type { TSearchGroup, TSearchResult } from "@/lib/search/search-incident";
import { fmtBootKey, fmtCount, fmtUtc } from "@/lib/view/format";
import css from "./incident-search.module.css";

const MODES = ["words", "substring"] as const;
const parsers = { search: parseAsString.withDefault(""), match: parseAsStringLiteral(MODES).withDefault("words") };

const plural = (n: number, one: string, many = `${one}s`) => `${fmtCount(n)} ${n === 1 ? one : many}`;

export function IncidentSearch({ incidentId }: { incidentId: string }) {
  const [url, setUrl] = useQueryStates(parsers, { history: "push" });
  const [text, setText] = useState(url.search);
  const [substring, setSubstring] = useState(url.match === "substring");
  useEffect(() => {
    setText(url.search);
    setSubstring(url.match === "substring");
  }, [url.search, url.match]);

  const q = url.search.trim();
  const result = useQuery({
    queryKey: ["incident-search", incidentId, q, url.match],
    queryFn: ({ signal }) =>
      fetchJson<TSearchResult>(`/api/incidents/${encodeURIComponent(incidentId)}/search${qs({ q, mode: url.match === "substring" ? "substring" : null })}`, {
        signal,
      }),
    enabled: q.length > 0,
    staleTime: 30_000,
  });

  return (
    <div data-testid="incident-search">
      <form
        className={css.form}
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void setUrl({ search: text.trim() || null, match: substring ? "substring" : null });
        }}
      >
        <input
          className={`input ${css.box}`}
          type="search"
          name="search"
          aria-label="search every node and boot of this incident"
          placeholder="pod name, sandbox id, path or error words"
          title="whole words, in order; a short sandbox or container id (12 or more hex digits, as crictl prints it) finds the full id"
          value={text}
          maxLength={200}
          onChange={(e) => setText(e.target.value)}
          data-testid="incident-search-input"
        />
        <label className="small" title="match any part of a word or id (reads every event: slower)">
          <input type="checkbox" checked={substring} onChange={(e) => setSubstring(e.target.checked)} data-testid="incident-search-substring" /> part of a word
        </label>
        <button className="btn" type="submit" data-testid="incident-search-submit">
          search
        </button>
      </form>
      {q && <SearchResults result={result.data} loading={result.isFetching} error={result.error as Error | null} />}
    </div>
  );
}

/**
 * The answer, its state in `data-status` (`loading` until this query's answer is in, `ready`,
 * `error`) and `aria-busy`: while a new query runs, the last answer stays, marked "searching…".
 */
function SearchResults({ result, loading, error }: { result?: TSearchResult; loading: boolean; error: Error | null }) {
  if (error)
    return (
      <p className="warn-box" role="alert" data-testid="incident-search-results" data-status="error">
        Search failed: {error.message}
      </p>
    );
  if (!result)
    return (
      <p className="muted small" role="status" aria-busy={loading} data-testid="incident-search-results" data-status={loading ? "loading" : "ready"}>
        {loading ? "searching…" : ""}
      </p>
    );
  const nodes = new Set(result.groups.map((g) => g.nodeId)).size;
  const boots = result.groups.filter((g) => g.bootId !== null).length;
  return (
    <div aria-live="polite" aria-busy={loading} data-testid="incident-search-results" data-status={loading ? "loading" : "ready"}>
      {loading && (
        <p className="muted small" role="status">
          searching…
        </p>
      )}
      <p className={css.summary} data-testid="incident-search-summary">
        {result.total === 0 ? (
          <>
            No events match “{result.q}”{result.mode === "words" ? " as whole words (try “part of a word”)" : ""}.
          </>
        ) : (
          <>
            <strong>{plural(result.total, "event")}</strong> match “{result.q}”{result.mode === "substring" ? " (part of a word)" : " (whole words)"}, in{" "}
            {plural(boots, "boot")} of {plural(nodes, "node")}
            {result.groups.length > boots && `, some in no boot`}.
          </>
        )}{" "}
        {result.bundles.scanned > 0 && result.mode === "words" && (
          <span className="muted small">
            ({plural(result.bundles.scanned, "bundle")} read without the search index, still being built: the counts are exact either way)
          </span>
        )}
      </p>
      {result.groups.map((g) => (
        <SearchGroup key={`${g.nodeId}:${g.bootId}`} g={g} />
      ))}
    </div>
  );
}

function SearchGroup({ g }: { g: TSearchGroup }) {
  return (
    <section className={css.group} data-testid="incident-search-group" data-node={g.node ?? ""} data-boot={g.bootKey ?? ""} data-count={g.count}>
      <div className={css.groupHead}>
        <strong>{g.node ?? "events on no node"}</strong>
        <span className="mono" title={g.bootKey ?? undefined}>
          {g.bootKey ? `boot ${fmtBootKey(g.bootKey)}` : "no boot"}
        </span>
        {g.bootStartMs !== null && <span className="muted small">T+0 {fmtUtc(g.bootStartMs, { ms: false })} UTC</span>}
        <span data-testid="incident-search-count">{plural(g.count, "event")}</span>
        {g.href && (
          <Link className="btn small" href={g.href} title="this boot's timeline with its events table filtered by the text">
            filter this boot’s timeline →
          </Link>
        )}
      </div>
      {g.hits.length > 0 && (
        <ul className={css.hits}>
          {g.hits.map((h) => (
            <li key={h.id} className={css.hit} data-testid="incident-search-hit">
              <span className="mono muted">{h.ts === null ? "no time" : fmtUtc(h.ts)}</span>
              <span className="muted">{h.lane}</span>
              {h.href ? (
                <Link href={h.href} className="mono" title="open in the timeline, this event selected">
                  {h.message}
                </Link>
              ) : (
                <span className="mono">{h.message}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {g.hits.length > 0 && g.count > g.hits.length && (
        <p className={`muted small ${css.more}`}>
          first {g.hits.length} of {fmtCount(g.count)}
        </p>
      )}
    </section>
  );
}
