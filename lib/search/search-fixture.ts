/**
 * Test support: journals of three nodes in the format `journalctl` prints (with its `-- Boot --`
 * separators), kubelet and containerd failing to set up pod sandboxes through Calico. The first
 * node has two boots. One sandbox id (`RARE_SANDBOX`) is named on the first node's second boot
 * (kubelet's and containerd's line of one failure) and once on the third node; every other
 * failure names a sandbox id of its own. Used by the search module's test and its end-to-end test.
 */

export const NODES = ["ip-10-0-0-1", "ip-10-0-0-2", "ip-10-0-0-3"] as const;
/** journal boot ids: node 1 has two boots, nodes 2 and 3 one each */
export const BOOTS: Record<(typeof NODES)[number], string[]> = {
  "ip-10-0-0-1": ["0a1b2c3d4e5f60718293a4b5c6d7e8f9", "1b2c3d4e5f60718293a4b5c6d7e8f90a"],
  "ip-10-0-0-2": ["2c3d4e5f60718293a4b5c6d7e8f90a1b"],
  "ip-10-0-0-3": ["3d4e5f60718293a4b5c6d7e8f90a1b2c"],
};
export const RARE_SANDBOX = "5f0c2c3bd4b9e0a1c7e6f8d9a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5";
export const RARE_POD = "kube-system/calico-node-x7k2p";
/** failures per boot (each a kubelet line and a containerd line) */
export const FAILURES_PER_BOOT = 12;

/** A sandbox id of its own for failure `i` of boot `b` of node `n` (64 hex digits). */
function sandboxId(n: number, b: number, i: number): string {
  const seed = `${n}${b}${String(i).padStart(3, "0")}`;
  return (seed + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855").slice(0, 64);
}

const two = (v: number) => String(v).padStart(2, "0");

/** The journal of node `n` (index into NODES), as `journalctl -u containerd -u kubelet` prints it. */
export function nodeJournal(n: number): string {
  const node = NODES[n];
  const out: string[] = [];
  BOOTS[node].forEach((bootId, b) => {
    out.push(`-- Boot ${bootId} --`);
    const hour = 2 + b;
    out.push(`Mar 14 ${two(hour)}:00:01 ${node} systemd[1]: Started containerd.service - containerd container runtime.`);
    out.push(`Mar 14 ${two(hour)}:00:02 ${node} systemd[1]: Started kubelet.service - Kubernetes Kubelet.`);
    for (let i = 0; i < FAILURES_PER_BOOT; i++) {
      // node 1, boot 2, failure 4: both lines name the rare id; node 3, failure 7: kubelet's stop of it
      const rareHere = n === 0 && b === 1 && i === 4;
      const rareStop = n === 2 && i === 7;
      const sbx = rareHere ? RARE_SANDBOX : sandboxId(n, b, i);
      const pod = rareHere ? RARE_POD : `kube-system/coredns-7db6d8ff4d-${"abcdefghijkl"[i]}${n}${b}q`;
      const [ns, name] = pod.split("/");
      const at = `${two(hour)}:00:${two(5 + i * 3)}`;
      out.push(
        `Mar 14 ${at} ${node} containerd[812]: time="2026-03-14T${at}.100000000Z" level=error msg="RunPodSandbox for &PodSandboxMetadata{Name:${name},Uid:9c1e${i}f7a-2b1d-4c3e-8f00-${n}${b}a1b2c3d4e5,Namespace:${ns},Attempt:0,} failed, error" error="failed to setup network for sandbox \\"${sbx}\\": plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/"`,
      );
      out.push(
        rareStop
          ? `Mar 14 ${at} ${node} kubelet[1432]: E0314 ${at}.200000    1432 log.go:32] "StopPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to destroy network for sandbox" podSandboxID="${RARE_SANDBOX}"`
          : `Mar 14 ${at} ${node} kubelet[1432]: E0314 ${at}.200000    1432 log.go:32] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"${sbx}\\": plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/" pod="${pod}"`,
      );
    }
  });
  return `${out.join("\n")}\n`;
}

/** The three journals as files (`<node>.journal.log`). */
export function searchFixtureFiles(): Array<{ name: string; content: string }> {
  return NODES.map((node, n) => ({
    name: `${node}.journal.log`,
    content: nodeJournal(n),
  }));
}
