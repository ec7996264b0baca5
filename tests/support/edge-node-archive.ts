/**
 * Test support: a hand-made `.tar.gz` of no known collector whose one top folder is the node's
 * name, holding a conflist rewrite loop seen from both sides: the cilium-agent's own log
 * (logfmt with `time=`) and the istio-cni agent's container log (CRI file under `pods/`, zap
 * console inside). For `seconds` s the two agents take turns on
 * `/host/etc/cni/net.d/05-cilium.conflist`: istio-cni rewrites it every `periodS` s (an
 * announcement, then `created CNI config` 3 ms later), Cilium restores it half a period after each.
 */
import { buildTarGz } from "../../lib/bundle/tar-build";

export const EDGE_NODE = "edge-node-03";
export const EDGE_CONFLIST = "/host/etc/cni/net.d/05-cilium.conflist";

/** RFC 3339 with nanoseconds, from UTC ms plus extra nanoseconds. */
function nanoStamp(ms: number, extraNs = 0): string {
  const iso = new Date(ms).toISOString(); // ...sss Z
  return `${iso.slice(0, 23)}${String(extraNs).padStart(6, "0")}Z`;
}

/** The archive's bytes and what it holds: writes per agent, start and end (UTC ms). */
export function edgeNodeArchive(opts: { start?: number; seconds?: number; periodS?: number } = {}) {
  const start = opts.start ?? Date.UTC(2025, 4, 19, 4, 20, 4, 809);
  const seconds = opts.seconds ?? 90;
  const periodMs = (opts.periodS ?? 0.4) * 1000;
  const istio: string[] = [];
  const cilium: string[] = [`time="${nanoStamp(start - 5000, 123456)}" level=info msg="Starting CNI configuration watcher" subsys=cni-config`];
  let istioWrites = 0;
  let ciliumWrites = 0;
  for (let t = start; t < start + seconds * 1000; t += periodMs) {
    const cri = (ms: number, text: string) => `${nanoStamp(ms, 345678)} stderr F ${nanoStamp(ms, 762).slice(0, 26)}Z\tinfo\tcni-agent\t${text}`;
    istio.push(cri(t, `configuration requires updates, (re)writing CNI config file at "${EDGE_CONFLIST}"`));
    istio.push(cri(t + 3, `created CNI config ${EDGE_CONFLIST}`));
    istioWrites++;
    const c = t + periodMs / 2;
    cilium.push(`time="${nanoStamp(c - 2, 451200)}" level=info msg="Activity in /host/etc/cni/net.d/, re-generating CNI configuration" subsys=cni-config`);
    cilium.push(`time="${nanoStamp(c, 904437)}" level=info msg="Wrote CNI configuration file to ${EDGE_CONFLIST}" subsys=cni-config`);
    ciliumWrites++;
  }
  const data = buildTarGz([
    { path: `${EDGE_NODE}/`, type: "Directory", mtimeMs: start + seconds * 1000 },
    { path: `${EDGE_NODE}/cilium/cilium-agent.log`, content: cilium.join("\n") + "\n", mtimeMs: start + seconds * 1000 },
    { path: `${EDGE_NODE}/pods/istio-system_istio-cni-node-x7k2p_0f0e/install-cni/0.log`, content: istio.join("\n") + "\n", mtimeMs: start + seconds * 1000 },
  ]);
  return { data, istioWrites, ciliumWrites, start };
}
