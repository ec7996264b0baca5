/**
 * Terminal colour codes: `journalctl` run on a terminal (or with `SYSTEMD_COLORS=1`, or piped
 * through `script`/`tmux capture-pane -e`) wraps warning and error lines in ANSI SGR sequences
 * (`ESC[0;1;31m … ESC[0m`, ECMA-48 CSI `ESC [ params m`); CI logs and `kubectl logs` of
 * coloured loggers hold them too. Copied through a browser or a chat client the ESC byte is
 * often lost and `[0;1;31m … [0m` is left. Both go before the sniff, so the line's own format
 * (and the klog or logrus line inside it) reads as if uncoloured.
 *
 * With the ESC byte: every CSI sequence (`ESC [` parameters, one final letter) goes. Without it:
 * SGR-shaped brackets (`[0m`, `[1;31m`, `[0;1;39m`) go only when the file's first `max` lines
 * hold at least two of them, one a reset (`[0m`), so a log that prints `[1m` once keeps it.
 */
import type { LineTransform } from "./types";

/** a CSI sequence with its ESC byte */
const CSI = /\x1b\[[0-9;:?]*[A-Za-z]/g;
/** an SGR sequence whose ESC byte was lost */
const BARE_SGR = /\[(?:\d{1,3}(?:;\d{1,3})*)?m/g;
const BARE_RESET = /\[0?m/;

/** Which kind of colour codes the first `max` lines hold: `esc`, `bare`, or null. */
export function detectAnsi(lines: readonly string[], max = 400): "esc" | "bare" | null {
  const n = Math.min(lines.length, max);
  let bare = 0;
  let reset = false;
  for (let i = 0; i < n; i++) {
    const l = lines[i];
    if (l.indexOf("\x1b[") >= 0) return "esc";
    if (l.indexOf("m") < 0 || l.indexOf("[") < 0) continue;
    const m = l.match(BARE_SGR);
    if (m) {
      bare += m.length;
      if (!reset) reset = BARE_RESET.test(l);
    }
  }
  return bare >= 2 && reset ? "bare" : null;
}

/** The ANSI transform (see the module comment). */
export const ansiTransform: LineTransform = {
  name: "ansi",
  apply(lines) {
    const kind = detectAnsi(lines);
    if (kind === null) return null;
    const re = kind === "esc" ? CSI : BARE_SGR;
    return { lines: lines.map((l) => (l.indexOf("[") >= 0 ? l.replace(re, "") : l)) };
  },
  samples: [
    {
      lines: [
        "Jun 07 10:00:01 node-1 systemd[1]: \x1b[0;1;39mStarted kubelet.service.\x1b[0m",
        'Jun 07 10:00:02 node-1 kubelet[1234]: \x1b[0;1;31mE0607 10:00:02.000000    1234 remote_runtime.go:193] "RunPodSandbox from runtime service failed"\x1b[0m',
      ],
      expect: [
        "Jun 07 10:00:01 node-1 systemd[1]: Started kubelet.service.",
        'Jun 07 10:00:02 node-1 kubelet[1234]: E0607 10:00:02.000000    1234 remote_runtime.go:193] "RunPodSandbox from runtime service failed"',
      ],
    },
    {
      // the ESC bytes lost in a copy from a browser
      lines: ["Jun 07 10:00:01 node-1 containerd[900]: [0;1;31mfailed to setup network for sandbox[0m", "Jun 07 10:00:02 node-1 containerd[900]: ok"],
      expect: ["Jun 07 10:00:01 node-1 containerd[900]: failed to setup network for sandbox", "Jun 07 10:00:02 node-1 containerd[900]: ok"],
    },
  ],
  notMine: [
    ["Jun 07 10:00:01 node-1 kubelet[1234]: pods=[web-0] took [1m]", "Jun 07 10:00:02 node-1 kubelet[1234]: ready"],
    ["[   12.345678] eth0: link up", "[   12.400000] cni0: port 1(veth1) entered forwarding state"],
  ],
};
