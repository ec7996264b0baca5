/**
 * Messages of Talos Linux's machined (upstream siderolabs/talos `internal/app/machined`), as they
 * reach the kernel log, the console and `talosctl dmesg`:
 *
 *     [talos] service[kubelet](Waiting): Error running Containerd(kubelet), going to restart forever: …
 *     [talos] task startAllServices (1/1): waiting for 2 services
 *     [talos] [initramfs] booting Talos v1.8.0
 *
 * The service a `service[<name>](<state>):` message is about (kubelet, cri, containerd, etcd,
 * apid, machined, udevd, ext-…) is the record's component; other `[talos]` messages are machined's.
 * `Containerd(kubelet)` in a message is the name of Talos's runner for the service, not containerd.
 */
import type { ParsedRecord } from "../types";

const SERVICE = /^\[talos\] service\[([^\]\s]+)\](?:\((\w+)\))?/;

/** Does `msg` start with machined's `[talos] ` tag? */
export function isTalosMessage(msg: string, at = 0): boolean {
  return msg.charCodeAt(at) === 91 && msg.startsWith("[talos]", at);
}

/**
 * Component and fields of a `[talos]` message: `service` / `state` from `service[<name>](<state>)`,
 * the service as component; `machined` when the message names no service (or was cut before its
 * name closed).
 */
export function applyTalos(rec: ParsedRecord, msg: string): void {
  const m = SERVICE.exec(msg);
  if (!m) {
    rec.component = "machined";
    return;
  }
  rec.component = m[1];
  const f: Record<string, string> = { ...(rec.fields ?? {}), service: m[1] };
  if (m[2] !== undefined) f.state = m[2];
  rec.fields = f;
}
