/**
 * The scenario "runtime-oom": the Calico nodename race after a reboot (calico-boot.ts, with the
 * sample incident's parameters: 40 pods retrying every 15 s, the nodename 75 s late) while the
 * kernel's OOM killer kills containerd twice inside the sandbox failure window. dmesg -T holds
 * the kernel's report of each kill ("containerd invoked oom-killer", "Out of memory: Killed
 * process <pid> (containerd) ..."), the containerd journal systemd's lines of the kill and the
 * restart (kind `log`: none of the coded detectors reads them, so their truth is the calico
 * scenario's). The truth adds the finding of the rule `oom-kill-runtime` (rules/kernel-memory.yaml).
 */
import { type CalicoNodenameParams, generateCalicoNodename, type Scenario } from "./calico-boot";
import { dmesgCtime, journalShort } from "./line-format";

/** Parameters: the calico race's, and when containerd is killed. */
export interface RuntimeOomParams extends CalicoNodenameParams {
  /** seconds after T+0 of each kill, comma-separated, each inside the failure window (whole seconds: dmesg -T's) */
  oomAtS: string;
}

/** The sample incident's race (lib/sample/load-sample.ts) with kills at T+25 s and T+50 s. */
export const RUNTIME_OOM_DEFAULTS = { pods: 40, retryIntervalS: 15, nodenameDelayS: 75, eventsSkewS: 0, seed: 1, oomAtS: "25,50" };

/** containerd's pid after each restart (the first is the boot's). */
const FIRST_PID = 1432;

/** `lines` merged into a journal's text in time order (whole-second stamps of one year compare as text). */
function mergeJournal(text: string, lines: string[]): string {
  const out = text.split("\n");
  for (const l of lines) {
    const stamp = l.slice(0, 15);
    let at = out.length;
    while (at > 0 && (out[at - 1] === "" || (out[at - 1].slice(0, 15) > stamp && !out[at - 1].startsWith("--")))) at--;
    out.splice(at, 0, l);
  }
  return out.join("\n");
}

/** The calico race with containerd OOM-killed at `oomAtS`. Throws when a kill lies outside the window. */
export function generateRuntimeOom(params: Partial<RuntimeOomParams> = {}): Scenario {
  const { oomAtS, ...race } = { ...RUNTIME_OOM_DEFAULTS, ...params };
  const base = generateCalicoNodename(race);
  const w = base.truth.window;
  // dmesg -T prints whole seconds
  const kills = String(oomAtS)
    .split(",")
    .map((s) => Math.floor(Number(s.trim())));
  if (!w || kills.some((s) => !(s >= w.openedAfterBootS && s <= (w.closedAfterBootS ?? Number.POSITIVE_INFINITY))))
    throw new Error(`oomAtS must lie inside the failure window (T+${w?.openedAfterBootS} s to T+${w?.closedAfterBootS} s), got ${oomAtS}`);
  const t0 = base.truth.t0Ms;
  const host = base.truth.node;
  const dmesg: string[] = [];
  const journal: string[] = [];
  kills.forEach((s, i) => {
    const us = (t0 + s * 1000) * 1000;
    const pid = FIRST_PID + i * 611;
    dmesg.push(
      dmesgCtime(us, "containerd invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=-999"),
      dmesgCtime(
        us,
        `oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/system.slice/containerd.service,task=containerd,pid=${pid},uid=0`,
      ),
      dmesgCtime(
        us,
        `Out of memory: Killed process ${pid} (containerd) total-vm:${2_458_624 + i * 40_960}kB, anon-rss:${912_344 + i * 20_480}kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:2212kB oom_score_adj:-999`,
      ),
    );
    journal.push(
      journalShort(us + 400_000, host, "systemd", 1, "containerd.service: A process of this unit has been killed by the OOM killer."),
      journalShort(us + 400_000, host, "systemd", 1, "containerd.service: Main process exited, code=killed, status=9/KILL"),
      journalShort(us + 5_400_000, host, "systemd", 1, `containerd.service: Scheduled restart job, restart counter is at ${i + 1}.`),
      journalShort(us + 5_400_000, host, "systemd", 1, "Started containerd.service - containerd container runtime."),
    );
  });
  const files = base.files.map((f) => {
    if (f.path === "kernel/dmesg.human.current") return { ...f, content: `${f.content.replace(/\n$/, "")}\n${dmesg.join("\n")}\n` };
    if (f.path === "containerd/containerd-log.txt") return { ...f, content: mergeJournal(f.content, journal) };
    return f;
  });
  const truth = {
    ...base.truth,
    scenario: "runtime-oom",
    params: { ...race, oomAtS },
    rules: [{ detector: "rule:oom-kill-runtime", matches: kills.length, atS: kills }],
  };
  return { name: "runtime-oom", files, truth };
}
