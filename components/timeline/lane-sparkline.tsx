"use client";
/**
 * One lane's density over the visible range: a Recharts step area of events per bucket,
 * with the errors (severity >= 3) drawn over it in red. Axes are hidden; the plot spans
 * the full width so the HTML overlays (bands, milestones, selection) line up with it.
 */
import { memo } from "react";
import { Area, AreaChart, ResponsiveContainer, XAxis, YAxis } from "recharts";

export interface TSparkPoint {
  /** bucket start, UTC ms */
  t: number;
  n: number;
  e: number;
}

export const LANE_COLORS: Record<string, string> = {
  kernel: "#8b9cff",
  runtime: "#5aa9ff",
  kubelet: "#4cc38a",
  "cni-plugin": "#f2b84b",
  "cni-agent": "#d08bff",
  events: "#6fd3dc",
  other: "#9aa3b2",
};

export const LaneSparkline = memo(function LaneSparkline(props: { data: TSparkPoint[]; from: number; to: number; max: number; color: string; height: number }) {
  return (
    <ResponsiveContainer width="100%" height={props.height} minWidth={10}>
      <AreaChart data={props.data} margin={{ top: 3, right: 0, bottom: 0, left: 0 }}>
        <XAxis type="number" dataKey="t" domain={[props.from, props.to]} hide allowDataOverflow />
        <YAxis type="number" hide domain={[0, Math.max(1, props.max)]} allowDataOverflow />
        <Area
          type="stepAfter"
          dataKey="n"
          stroke={props.color}
          strokeWidth={1}
          fill={props.color}
          fillOpacity={0.35}
          isAnimationActive={false}
          dot={false}
          activeDot={false}
        />
        <Area type="stepAfter" dataKey="e" stroke="none" fill="#ff5d5d" fillOpacity={0.55} isAnimationActive={false} dot={false} activeDot={false} />
      </AreaChart>
    </ResponsiveContainer>
  );
});

/**
 * Dense points for a sparse series ([index, count, errors] per non-empty bucket): one
 * point per bucket start plus a closing point, so the step area covers every bucket.
 */
export function densify(buckets: Array<[number, number, number]>, startMs: number, bucketMs: number, count: number): TSparkPoint[] {
  const n = new Array<number>(count).fill(0);
  const e = new Array<number>(count).fill(0);
  for (const [i, c, err] of buckets) {
    if (i >= 0 && i < count) {
      n[i] += c;
      e[i] += err;
    }
  }
  const out: TSparkPoint[] = new Array(count + 1);
  for (let i = 0; i < count; i++) out[i] = { t: startMs + i * bucketMs, n: n[i], e: e[i] };
  out[count] = { t: startMs + count * bucketMs, n: n[count - 1] ?? 0, e: e[count - 1] ?? 0 };
  return out;
}
