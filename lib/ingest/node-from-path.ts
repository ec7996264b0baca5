/**
 * Node name from a file's place in a collector's layout (FORMATS.md 5a), for the layouts
 * that put one folder per node. Returns null when the path does not say; the journal
 * hostname column then decides (DESIGN.md "Definitions: Node").
 *
 * - kind export: `kind-version.txt` at the root and `<node>/{journal,kubelet,containerd}.log`
 * - Rancher collector: top folder `<host>-YYYY-MM-DD_HH_MM_SS/`
 * - troubleshoot remote host collectors: `host-collectors/<node>/journald/...`
 * - OpenShift node-logs: `nodes/<node>/<node>_logs_<unit>.gz`
 */
export function nodeFromPath(path: string, allPaths: readonly string[]): string | null {
  const parts = path.split("/");
  const rancher = /^(.+)-\d{4}-\d{2}-\d{2}_\d{2}_\d{2}_\d{2}$/.exec(parts[0] ?? "");
  if (rancher && parts.length > 1) return rancher[1];
  const isKind = allPaths.some((p) => /(^|\/)kind-version\.txt$/.test(p));
  if (isKind) {
    // <root?>/<node>/<file>; the root folder (if any) holds kind-version.txt
    const kv = allPaths.find((p) => /(^|\/)kind-version\.txt$/.test(p))!;
    const rootDepth = kv.split("/").length - 1;
    if (parts.length >= rootDepth + 2) return parts[rootDepth] ?? null;
  }
  const hc = parts.indexOf("host-collectors");
  if (hc >= 0 && parts[hc + 2] === "journald" && parts[hc + 1] !== "journald") return parts[hc + 1] ?? null;
  const nodes = parts.indexOf("nodes");
  if (nodes >= 0 && parts.length > nodes + 2 && parts[nodes + 2]?.startsWith(`${parts[nodes + 1]}_logs_`)) return parts[nodes + 1] ?? null;
  return null;
}
