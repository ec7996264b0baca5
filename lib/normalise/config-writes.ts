/**
 * Writes of CNI config files (conflists) as the agents that write them log them, and as
 * `inotifywait -m` sees them: one table of rules (writer, components, text pattern, where the
 * path is), read by the classifier (`cni.config.written` / `cni.config.removed`,
 * lib/normalise/classify.ts) and by the conflist rewrite loop detector (who wrote which file,
 * lib/detect/conflist-rewrite-loop.ts). Pure: values in, values out.
 *
 * Texts, by upstream source (each rule's `samples` hold lines in these shapes; checked by
 * lib/normalise/config-writes.test.ts):
 * - Cilium agent, `daemon/cmd/cni/config.go` (`setupCNIConfFile`): logrus `Wrote CNI configuration
 *   file to <path>` (text, with or without `time=`, and JSON); slog (Cilium >= 1.18) `Wrote CNI
 *   configuration file` with the path in the `destination` attribute. `Generating CNI
 *   configuration file with mode <m>` only renders the file (it is written only when it changed:
 *   case 003 has three renders and one write), so it is no write. With cni-exclusive on,
 *   `Renaming non-Cilium CNI configuration file <name> to <name>.cilium_bak` takes another
 *   plugin's file away (a removal of that file, in the CNI config directory);
 * - istio-cni, `cni/pkg/install/install.go` and `cniconfig.go`: `configuration requires updates,
 *   (re)writing CNI config file at "<path>"` announces a write that `created CNI config <path>`
 *   completes about 10 ms later (case 006); older installers print `Created CNI config <path>`;
 * - linkerd-cni, `cni-plugin/deployment/scripts/install-cni.sh`: `Created CNI config <path>`
 *   after moving its patched copy into place; `Removing linkerd-cni config from <path>` rewrites
 *   the file without its entry; `Detected event: <EVENT> <path>` is its inotify watch seeing a
 *   write (by anyone: a write seen without its writer);
 * - Multus, `images/entrypoint.sh`: `Config file created @ <path>`; the Go thin entrypoint
 *   (`cmd/thin_entrypoint/main.go`) prints `multus config file is created.` without a path: its
 *   default `<cni-conf-dir>/00-multus.conf` (`/host/etc/cni/net.d`) is taken;
 * - Calico install-cni: Go (`cni-plugin/pkg/install/install.go`) `Created <path>` /
 *   `Removing <path>`; the older shell installer `Created CNI config <name>` (a file name in the
 *   CNI config directory);
 * - `inotifywait -m` on the config directory (lib/parse/inotifywait.ts normalises every line to
 *   `<dir>/ <EVENTS> <file>`): CLOSE_WRITE or MOVED_TO ends a write, CREATE and MODIFY are parts
 *   of one, DELETE and MOVED_FROM remove the file. Dot-named temporary files (renameio's
 *   `.05-cilium.conflist123`) are not config files.
 *
 * Paths are the host's: a container's `/host` mount prefix is dropped, so
 * `/host/etc/cni/net.d/x` and `/etc/cni/net.d/x` are one file. A bare file name is in the
 * default CNI config directory `/etc/cni/net.d`.
 */

import { CONFIG_WRITE_RULES, type ConfigWrite, type ConfigWriteInput } from "./config-write-rules";

export {
  CONFIG_WRITE_RULES,
  type ConfigWrite,
  type ConfigWriteInput,
  type ConfigWriteRole,
  type ConfigWriteRule,
  NOT_CONFIG_WRITES,
} from "./config-write-rules";

/** The CNI config directory a bare file name is in. */
export const DEFAULT_CNI_CONF_DIR = "/etc/cni/net.d";

/** A path as the host sees it: the container's `/host` prefix dropped, `//` collapsed; a bare name in `DEFAULT_CNI_CONF_DIR`. */
export function hostConfigPath(p: string): string {
  const full = p.startsWith("/") ? p : `${DEFAULT_CNI_CONF_DIR}/${p}`;
  return full.replace(/\/{2,}/g, "/").replace(/^\/host(?=\/)/, "");
}

/** Cheap pre-check: words every rule's text contains one of (most lines have none). */
const HINT = /CNI config|Config file created|multus config file|Created |Removing |Detected event|\.conf(?:list)?\b|\.json\b/;

/** The write a record reports, by the first rule whose component and text match; null when none does. */
export function configWriteOf(r: ConfigWriteInput): ConfigWrite | null {
  const message = r.message ?? "";
  if (!HINT.test(message)) return null;
  const c = (r.component ?? "").toLowerCase();
  for (const rule of CONFIG_WRITE_RULES) {
    if (!rule.components.test(c)) continue;
    const m = rule.text.exec(message);
    if (!m) continue;
    const g = m.groups ?? {};
    let path: string | undefined = g.file !== undefined ? (g.dir ?? "") + g.file : (g.path ?? g.path2);
    if (!path && rule.pathFields && r.fields) {
      for (const k of rule.pathFields) {
        const v = r.fields[k];
        if (v) {
          path = v;
          break;
        }
      }
    }
    path ??= rule.defaultPath;
    return { rule: rule.name, writer: rule.writer, path: path ? hostConfigPath(path) : null, role: rule.role };
  }
  return null;
}
