/**
 * Why an image pull failed, from the text of the failure line (the registry client's error as
 * containerd, CRI-O or the kubelet relay it): data, most specific first; the first whose
 * `pattern` matches names the cause. Each entry carries a line in a real format that must give
 * it (`sample`), checked by the detector's test. Texts: containerd `remotes/docker` resolver
 * errors (`failed to resolve reference`, `unexpected status code … 429 Too Many Requests`,
 * `pull access denied`), Go's net errors (`dial tcp: lookup <host> … no such host`, `i/o
 * timeout`), Docker Hub's `toomanyrequests` (its pull rate limit).
 */

export interface PullCause {
  key: "rate-limited" | "name-unresolved" | "auth-refused" | "not-found" | "unreachable" | "timed-out";
  /** plain words for a finding ("the registry's name did not resolve") */
  words: string;
  /** what a reviewer checks next */
  next: string;
  pattern: RegExp;
  sample: string;
}

export const PULL_CAUSES: readonly PullCause[] = [
  {
    key: "rate-limited",
    words: "the registry limited the pull rate",
    next: "every pod pulls at once after a reboot: use a registry mirror or pull-through cache, authenticated pulls, or images kept on the node (`imagePullPolicy: IfNotPresent`).",
    pattern: /429 Too Many Requests|toomanyrequests|rate limit/i,
    sample:
      'Failed to pull image "nginx:1.25": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/nginx:1.25": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/nginx/manifests/sha256:4c0f: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.',
  },
  {
    key: "name-unresolved",
    words: "the registry's name did not resolve",
    next: "the node's DNS right after boot: /etc/resolv.conf and the upstream resolver (systemd-resolved up yet?); pulls use the node's resolver, not CoreDNS.",
    pattern: /no such host|server misbehaving|Temporary failure in name resolution/i,
    sample:
      'Failed to pull image "registry.k8s.io/pause:3.9": rpc error: code = Unknown desc = failed to pull and unpack image "registry.k8s.io/pause:3.9": failed to resolve reference "registry.k8s.io/pause:3.9": failed to do request: Head "https://registry.k8s.io/v2/pause/manifests/3.9": dial tcp: lookup registry.k8s.io on 10.0.0.2:53: no such host',
  },
  {
    key: "auth-refused",
    words: "the registry refused the credentials",
    next: "the pull secret or the node's registry credentials (a credential provider that starts after the kubelet, an expired token).",
    pattern: /401 Unauthorized|403 Forbidden|authorization failed|authentication required|pull access denied|no basic auth credentials/i,
    sample:
      'PullImage "registry.example.com/team/api:2.4.1" failed error="failed to pull and unpack image \\"registry.example.com/team/api:2.4.1\\": failed to resolve reference \\"registry.example.com/team/api:2.4.1\\": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed"',
  },
  {
    key: "not-found",
    words: "the image is not in the registry",
    next: "the image reference (tag or digest) in the pod spec.",
    pattern: /manifest unknown|: not found|repository does not exist|NotFound/i,
    sample:
      'Failed to pull image "quay.io/example/agent:v9.9.9": rpc error: code = NotFound desc = failed to pull and unpack image "quay.io/example/agent:v9.9.9": failed to resolve reference "quay.io/example/agent:v9.9.9": quay.io/example/agent:v9.9.9: not found',
  },
  {
    key: "unreachable",
    words: "the registry could not be reached",
    next: "the node's own network right after boot: its route out, a proxy (`HTTPS_PROXY` for containerd), the registry's firewall.",
    pattern: /i\/o timeout|connection refused|network is unreachable|no route to host|TLS handshake timeout|connection reset by peer/i,
    sample:
      'Failed to pull image "602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni:v1.15.1": rpc error: code = Unknown desc = failed to pull and unpack image: failed to resolve reference: failed to do request: Head "https://602401143452.dkr.ecr.us-west-2.amazonaws.com/v2/amazon-k8s-cni/manifests/v1.15.1": dial tcp 52.94.1.1:443: i/o timeout',
  },
  {
    key: "timed-out",
    words: "the pull timed out or was cancelled",
    next: "a slow registry or a large image: the kubelet's `--runtime-request-timeout` and containerd's `image_pull_progress_timeout`.",
    pattern: /context deadline exceeded|DeadlineExceeded|context canceled|code = Canceled/i,
    sample: 'PullImage "nginx:1.25" from image service failed: rpc error: code = DeadlineExceeded desc = context deadline exceeded',
  },
];

/** The cause of a failed pull's text, or null when no entry matches. */
export function pullCauseOf(text: string): PullCause | null {
  for (const c of PULL_CAUSES) if (c.pattern.test(text)) return c;
  return null;
}
