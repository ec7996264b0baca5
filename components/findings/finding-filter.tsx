"use client";
/**
 * The incident page's findings filter: a checkbox per detector and per severity, each with the
 * findings it shows (lib/view/finding-groups.ts `findingFilterOptions`), "n of m findings shown"
 * and a reset. The choice lives in the URL (`det=retry-storm,sandbox-failure-window&sev=critical`)
 * and the page filters on the server, so a permalink or a reload shows the same findings; while
 * the page answers a change the list is marked busy (`data-status="loading"`, `aria-busy`).
 * `children` is the filtered list, rendered by the page.
 */
import { parseAsArrayOf, parseAsString, useQueryStates } from "nuqs";
import { type ReactNode, useTransition } from "react";
import type { TFilterOption } from "@/lib/view/finding-groups";

const parsers = { det: parseAsArrayOf(parseAsString).withDefault([]), sev: parseAsArrayOf(parseAsString).withDefault([]) };

export function FindingFilter(p: { detectors: TFilterOption[]; severities: TFilterOption[]; shown: number; total: number; children: ReactNode }) {
  const [pending, startTransition] = useTransition();
  const [url, setUrl] = useQueryStates(parsers, { shallow: false, history: "replace", startTransition });
  const toggle = (key: "det" | "sev", value: string, on: boolean) => {
    const next = on ? [...url[key].filter((v) => v !== value), value] : url[key].filter((v) => v !== value);
    void setUrl({ [key]: next.length ? next : null });
  };
  const active = url.det.length > 0 || url.sev.length > 0;
  return (
    <div className="finding-filter-scope" data-testid="finding-filter-scope" data-status={pending ? "loading" : "ready"} aria-busy={pending}>
      <div className="finding-filter" role="group" aria-label="filter the findings" data-testid="finding-filter">
        <Choices legend="detector" testId="finding-filter-det" options={p.detectors} selected={url.det} on={(v, c) => toggle("det", v, c)} mono />
        <Choices legend="severity" testId="finding-filter-sev" options={p.severities} selected={url.sev} on={(v, c) => toggle("sev", v, c)} />
        <p className="finding-filter-shown" data-testid="findings-shown" data-shown={p.shown} data-total={p.total} aria-live="polite">
          <b>
            {p.shown.toLocaleString("en-US")} of {p.total.toLocaleString("en-US")}
          </b>{" "}
          finding{p.total === 1 ? "" : "s"} shown
          {pending && <span className="muted"> · loading…</span>}
          {active && (
            <>
              {" "}
              <button type="button" className="btn small" data-testid="finding-filter-reset" onClick={() => void setUrl({ det: null, sev: null })}>
                show all
              </button>
            </>
          )}
        </p>
      </div>
      {p.shown === 0 && p.total > 0 && <p className="muted">No finding matches this filter.</p>}
      {p.children}
    </div>
  );
}

function Choices(p: {
  legend: string;
  testId: string;
  options: TFilterOption[];
  selected: string[];
  on(value: string, checked: boolean): void;
  mono?: boolean;
}) {
  return (
    <fieldset className="finding-filter-set" data-testid={p.testId}>
      <legend>{p.legend}</legend>
      {p.options.map((o) => (
        <label key={o.value} className="finding-filter-choice" data-value={o.value} data-count={o.count}>
          <input type="checkbox" checked={p.selected.includes(o.value)} onChange={(e) => p.on(o.value, e.target.checked)} />
          <span className={p.mono ? "mono" : undefined}>{o.value}</span> <span className="muted">({o.count.toLocaleString("en-US")})</span>
        </label>
      ))}
    </fieldset>
  );
}
