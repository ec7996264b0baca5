"use client";
/** The upload panel's choices: a new incident (its title) or an existing one, and the optional node, zone, year and collection time. */
import type { TUploadFieldText } from "@/lib/upload/upload-fields";

const COMMON_ZONES = [
  "UTC",
  "America/Los_Angeles",
  "America/New_York",
  "Europe/London",
  "Europe/Berlin",
  "Asia/Kolkata",
  "Asia/Shanghai",
  "Asia/Tokyo",
  "Australia/Sydney",
];

export function IncidentTarget(p: {
  busy: boolean;
  incidents: Array<{ id: string; title: string }>;
  target: "new" | "existing";
  onTarget(t: "new" | "existing"): void;
  title: string;
  onTitle(t: string): void;
  incidentId: string;
  onIncidentId(id: string): void;
}) {
  return (
    <fieldset className="target" disabled={p.busy}>
      <legend className="sr-only">incident</legend>
      <label className="radio">
        <input type="radio" name="target" checked={p.target === "new"} onChange={() => p.onTarget("new")} /> new incident
      </label>
      <label className="radio">
        <input type="radio" name="target" checked={p.target === "existing"} onChange={() => p.onTarget("existing")} disabled={p.incidents.length === 0} /> add
        to an existing incident
      </label>
      {p.target === "new" ? (
        <label className="field">
          <span>Incident title</span>
          <input className="input" value={p.title} onChange={(e) => p.onTitle(e.target.value)} placeholder="prod-eu reboot 03-14" maxLength={200} />
        </label>
      ) : (
        <label className="field">
          <span>Incident</span>
          <select className="input" value={p.incidentId} onChange={(e) => p.onIncidentId(e.target.value)}>
            {p.incidents.map((i) => (
              <option key={i.id} value={i.id}>
                {i.title}
              </option>
            ))}
          </select>
        </label>
      )}
    </fieldset>
  );
}

export function UploadOptionFields(p: { busy: boolean; fields: TUploadFieldText; onField(k: keyof TUploadFieldText, v: string): void }) {
  const f = p.fields;
  return (
    <details className="advanced">
      <summary>Node, time zone, year, collection time (optional)</summary>
      <fieldset disabled={p.busy}>
        <label className="field">
          <span>Node name</span>
          <input className="input" value={f.node} onChange={(e) => p.onField("node", e.target.value)} placeholder="from the bundle layout or hostnames" />
        </label>
        <label className="field">
          <span>Time zone of zone-less stamps</span>
          <input className="input" list="tz-list" value={f.tz} onChange={(e) => p.onField("tz", e.target.value)} placeholder="UTC" />
          <datalist id="tz-list">
            {COMMON_ZONES.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </label>
        <label className="field">
          <span>Year of year-less stamps</span>
          <input className="input" inputMode="numeric" value={f.year} onChange={(e) => p.onField("year", e.target.value)} placeholder="inferred" />
        </label>
        <label className="field">
          <span>Collected at (UTC unless a zone is given)</span>
          <input className="input" value={f.collected} onChange={(e) => p.onField("collected", e.target.value)} placeholder="2026-03-14T02:30:00Z" />
        </label>
      </fieldset>
    </details>
  );
}
