/**
 * A whole `journalctl -o json-pretty` file through `parseFile`: sniffed as such, one record per
 * entry with the entry's lines as continuations, times from the klog / logrus stamp inside MESSAGE
 * or from `__REALTIME_TIMESTAMP`, the journal boot id from `_BOOT_ID`, and an entry the file cuts
 * short still read up to its last whole field.
 */
import { describe, expect, it } from "vitest";
import { parseFile } from "./parse-file";

/** One entry as journalctl prints it with `-o json-pretty` (tab indent, ` : `). */
function entry(fields: Record<string, string>): string {
  const lines = Object.entries(fields).map(([k, v]) => `\t${JSON.stringify(k)} : ${JSON.stringify(v)}`);
  return `{\n${lines.join(",\n")}\n}`;
}

const BOOT_A = "6c0f2ea14b7d4e1a9c3358b0f2d7e611";
const BOOT_B = "a91e07c25d3f4b08b6e2f4c1d9a07e33";
const base = (us: string, boot: string) => ({
  __CURSOR: `s=0a1b;i=${us.slice(-3)};b=${boot}`,
  __REALTIME_TIMESTAMP: us,
  _BOOT_ID: boot,
  _HOSTNAME: "ip-10-20-30-40.ec2.internal",
});

const text = [
  entry({
    ...base("1747628407512401", BOOT_A),
    PRIORITY: "3",
    SYSLOG_IDENTIFIER: "kubelet",
    _PID: "2817",
    MESSAGE:
      'E0519 04:20:07.512344    2817 log.go:32] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"8421096d58ae07487b3a71169bf3e37b268aa67ebae2301b748f006b03688dfa\\": plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory"',
  }),
  entry({ ...base("1747629000000123", BOOT_B), PRIORITY: "6", SYSLOG_IDENTIFIER: "kernel", MESSAGE: "Linux version 6.1.134-152.225.amzn2023.x86_64" }),
  entry({
    ...base("1747629011250456", BOOT_B),
    PRIORITY: "6",
    SYSLOG_IDENTIFIER: "containerd",
    _PID: "811",
    MESSAGE: 'time="2025-05-19T04:30:11.250400000Z" level=info msg="starting containerd" version=v1.7.27',
  }),
  // cut by the collector inside the last entry, after its MESSAGE line
  `{\n\t"__CURSOR" : "s=0a1b;i=9",\n\t"__REALTIME_TIMESTAMP" : "1747629012000000",\n\t"_BOOT_ID" : "${BOOT_B}",\n\t"SYSLOG_IDENTIFIER" : "systemd",\n\t"MESSAGE" : "Started kubelet.service - kubelet: The Kubernetes Node Agent.",`,
].join("\n");

describe("journal-json-pretty through parseFile", () => {
  it("reads each entry as one record with its boot id and time", () => {
    const f = parseFile("node/journal.json", text, { collectedMs: Date.UTC(2025, 4, 19, 6) });
    expect(f.format).toBe("journal-json-pretty");
    const lines = text.split("\n").length;
    expect(f.counts).toMatchObject({ lines, records: 4, continuation: lines - 4, skipped: 0 });
    // entries of 8, 7, 8 and (cut) 5 fields: `{` lines 1, 11, 20, 30
    expect(f.records.map((r) => [r.line, r.component, r.journalBootId, r.ts])).toEqual([
      [1, "kubelet", BOOT_A, Date.UTC(2025, 4, 19, 4, 20, 7, 512)],
      [11, "kernel", BOOT_B, 1747629000000],
      [20, "containerd", BOOT_B, Date.UTC(2025, 4, 19, 4, 30, 11, 250)],
      [30, "systemd", BOOT_B, 1747629012000],
    ]);
    const [kubelet, , , systemd] = f.records;
    expect(kubelet.severity).toBe(3);
    expect(kubelet.message.startsWith("RunPodSandbox from runtime service failed")).toBe(true);
    expect(kubelet.fields?.err).toContain("failed to setup network for sandbox");
    expect(systemd.message).toBe("Started kubelet.service - kubelet: The Kubernetes Node Agent.");
    expect(systemd.endLine).toBe(lines);
  });
});

describe("journal-json-pretty entries cut short", () => {
  const head = `{\n\t"__CURSOR" : "s=0a1b;i=1",\n\t"__REALTIME_TIMESTAMP" : "1747629012000000",\n\t"_BOOT_ID" : "${BOOT_B}",\n\t"SYSLOG_IDENTIFIER" : "systemd",\n`;
  const read = (text: string) => parseFile("journal.json", text, { collectedMs: Date.UTC(2025, 4, 19, 6) }).records;

  it("inside a string: the fields before it, and the string as far as it goes", () => {
    const [r] = read(`${head}\t"MESSAGE" : "Started kubelet.service - kube`);
    expect([r.component, r.journalBootId, r.ts, r.message]).toEqual(["systemd", BOOT_B, 1747629012000, "Started kubelet.service - kube"]);
    // cut inside an escape: closed before it
    const [e] = read(`${head}\t"MESSAGE" : "say \\"hi\\u00`);
    expect(e.message).toBe('say "hi');
  });

  it("inside a MESSAGE of bytes, or in a later entry's place: the other fields are kept", () => {
    const [r] = read(`${head}\t"MESSAGE" : [\n\t\t76,\n\t\t105`);
    expect([r.component, r.journalBootId, r.ts]).toEqual(["systemd", BOOT_B, 1747629012000]);
    // a broken field line in the middle of a closed entry costs that field only
    const [m] = read(`${head}\t"_PID" : 81x1,\n\t"MESSAGE" : "Reached target multi-user.target."\n}`);
    expect([m.component, m.pid, m.message]).toEqual(["systemd", undefined, "Reached target multi-user.target."]);
  });
});
