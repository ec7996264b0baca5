import { describe, expect, it } from "vitest";
import { ERROR_CLASS_SLUGS, errorClassOf, stripWrappers } from "./error-class";
import { parseKeyValues, readGoQuoted, splitStructured, unescapeNested } from "./go-text";

describe("errorClassOf: fixed slugs", () => {
  const cases: Array<[string, string]> = [
    [
      'rpc error: code = Unknown desc = failed to setup network for sandbox "72650e68f6cdb67e9d212d443df8c6a73d008d03296fef699dad19f1f66a8eea": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/',
      "calico-nodename-missing",
    ],
    [
      'failed to setup network for sandbox "ab": plugin type="istio-cni" name="istio-cni" failed (add): failed to read kubeconfig: open /var/run/istio-cni/istio-cni-kubeconfig: no such file or directory',
      "istio-cni-kubeconfig-missing",
    ],
    ["NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized", "cni-config-uninitialized"],
    ["network plugin is not ready: cni config uninitialized", "cni-config-uninitialized"],
    ["no networks found in /etc/cni/net.d", "cni-config-uninitialized"],
    ['failed to find plugin "calico" in path [/opt/cni/bin]', "cni-plugin-not-found"],
    [
      'plugin type="cilium-cni" failed (add): unable to connect to Cilium daemon: failed to create cilium agent client after 30.000000 seconds timeout: Get "http:///var/run/cilium/cilium.sock/v1/config": dial unix /var/run/cilium/cilium.sock: connect: no such file or directory',
      "cilium-agent-unreachable",
    ],
    ["rpc error: code = DeadlineExceeded desc = context deadline exceeded", "context-deadline-exceeded"],
    ['networkPlugin cni failed to set up pod "kafka-0_default" network: netplugin failed with no error message', "netplugin-no-error-message"],
    [
      'plugin type="host-local" failed (add): failed to allocate for range 0: no IP addresses available in range set: 10.244.1.1-10.244.1.254',
      "ipam-exhausted",
    ],
    [
      'plugin type="calico" failed (add): error getting ClusterInformation: Get "https://10.96.0.1:443/apis/crd.projectcalico.org/v1/clusterinformations/default": dial tcp 10.96.0.1:443: connect: connection refused',
      "cni-connection-refused",
    ],
    ['rpc error: code = Unknown desc = failed to setup network for sandbox "abcd": plugin type="calico" failed (add): ', "truncated"],
    ["rpc error: code = Unknown desc =", "truncated"],
    [
      "rpc error: code = Unavailable desc = error reading from server: read unix @->/run/containerd/containerd.sock: read: connection reset by peer",
      "runtime-unreachable",
    ],
    [
      'NetworkPlugin cni failed to set up pod "coredns-5c98db65d4-x7k2p_kube-system" network: open /run/flannel/subnet.env: no such file or directory',
      "flannel-subnet-missing",
    ],
    [
      'plugin type="antrea" failed (add): rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing dial unix /var/run/antrea/cni.sock: connect: no such file or directory"',
      "cni-agent-unreachable",
    ],
    ['plugin type="calico" failed (add): error getting ClusterInformation: connection is unauthorized: Unauthorized', "cni-api-unauthorized"],
    [
      'failed to set up sandbox container "1edd" network for pod "db-0": NetworkPlugin cni failed to set up pod "db-0_data" network: unable to allocate IP address: Post http://127.0.0.1:6784/ip/1edd: dial tcp 127.0.0.1:6784: connect: connection refused',
      "weave-ipam-unreachable",
    ],
    [
      'failed to setup network for sandbox "c12c": plugin type="multus-shim" name="multus-cni-network" failed (add): CmdAdd (shim): failed to send CNI request: Post "http://dummy/cni": dial unix /run/multus/multus.sock: connect: connection refused',
      "multus-daemon-unreachable",
    ],
    [
      'Failed create pod sandbox: rpc error: code = Unknown desc = failed to inspect sandbox image "registry.example/pause:3.1\\"": Error response from daemon: no such image: registry.example/pause:3.1": invalid reference format',
      "sandbox-image-invalid",
    ],
    ["Failed to create pod sandbox: rpc error: code = Unavailable desc = transport is closing", "runtime-unreachable"],
    [
      'CreatePodSandbox for pod "web-0_default(0f9c)" failed: rpc error: code = Unknown desc = pod sandbox with name "k8s_web-0_default_0f9c1b2e3d4a5f60718293a4b5c6d7e8_0" already exists',
      "sandbox-name-exists",
    ],
    [
      'rpc error: code = Unknown desc = failed to set up sandbox container "4be1" network for pod "job-7-x2k9q": networkPlugin cni failed to set up pod "job-7-x2k9q_batch" network: plugin type="loopback" failed (add): failed to Statfs "/proc/48211/ns/net": no such file or directory',
      "netns-gone",
    ],
    [
      'failed to setup network for sandbox "aa11": plugin type="calico" name="Calico" failed (add): error creating endpoint: hcnCreateEndpoint failed in Win32: The object already exists. (0x1392) {"Success":false,"Error":"The object already exists. ","ErrorCode":2147947410}',
      "hns-endpoint-exists",
    ],
    ["failed during hnsCallRawResponse: hnsCall failed in Win32: This endpoint is already attached to the switch. (0x803b0014)", "hns-endpoint-exists"],
    [
      'NetworkPlugin cni failed to set up pod "api-7f9d_default" network: Failed to create endpoint: HNS failed with error : Element not found.',
      "hns-network-missing",
    ],
    ["error while ProvisionEndpoint(cbr0_ep,5f1c,C:\\k\\cni): hnsCall failed in Win32: The network was not found.", "hns-network-missing"],
    [
      'failed to setup network for sandbox "0a1b": plugin type="kube-ovn" failed (add): RPC failed; request ip return 500 no address allocated to pod shop/web-5d8c7b9f4-q2w3e provider ovn, please see kube-ovn-controller logs to find errors',
      "cni-pod-address-pending",
    ],
    [
      "CNI request failed with status 400: [default/web 725605] failed to get pod annotation: timed out waiting for annotations: context deadline exceeded",
      "cni-pod-address-pending",
    ],
    [
      'networkPlugin cni failed to set up pod "web_default" network: [default/web] failed to get pod annotation: timed out waiting for the condition',
      "cni-pod-address-pending",
    ],
    ['networkPlugin cni failed to set up pod "sample-0_dxp" network: request ip return 500 no available ip for pod dxp/sample-0', "ipam-exhausted"],
    [
      'plugin type="kube-ovn" failed (add): RPC failed; Post "http://dummy/api/v1/add": dial unix /run/openvswitch/kube-ovn-daemon.sock: connect: connection refused',
      "cni-agent-unreachable",
    ],
    [
      // Whereabouts' AssignmentError behind Multus (openshift/origin#26966): its range has no free address
      'plugin type="multus" name="multus-cni-network" failed (add): [ns-1/wb-pod-7/3a56:wbbridge]: error adding container to network "wbbridge": Error at storage engine: Could not allocate IP in range: ip: 192.168.2.225 / - 192.168.2.230 / range: net.IPNet{IP:net.IP{0xc0, 0xa8, 0x2, 0xe0}, Mask:net.IPMask{0xff, 0xff, 0xff, 0xf8}}',
      "ipam-exhausted",
    ],
    [
      // Multus before the default network's agent wrote its config (multus-cni `pkg/multus`)
      'error adding pod auth_oauth-5fd5 to CNI network "multus-cni-network": plugin type="multus" name="multus-cni-network" failed (add): Multus: [auth/oauth-5fd5]: have you checked that your default network is ready? still waiting for readinessindicatorfile @ /var/run/multus/cni/net.d/10-ovn-kubernetes.conf. pollimmediate error: timed out waiting for the condition',
      "cni-config-uninitialized",
    ],
  ];
  it.each(cases)("%s -> %s", (text, slug) => {
    expect(errorClassOf(text)).toBe(slug);
  });

  it("other HNS refusals are signatures without hcsshim's result object", () => {
    expect(
      errorClassOf(
        'hcnCreateNetwork failed in Win32: The parameter is incorrect. (0x57) {"Success":false,"Error":"The parameter is incorrect. ","ErrorCode":2147942487}',
      ),
    ).toBe("sig:hcncreatenetwork failed in winN: the parameter is incorrect. (NxN)");
  });

  it("every slug is reachable", () => {
    expect(new Set(cases.map((c) => c[1]))).toEqual(new Set(ERROR_CLASS_SLUGS));
  });

  it("a stale sandbox name as CRI-O, cri-dockerd and docker word it; containerd's reservation of a call in progress is not one", () => {
    expect(
      errorClassOf(
        'rpc error: code = Unknown desc = Conflict. The name "k8s_POD_etcd-node-a_kube-system_5be0c1d2e3f4a5b6c7d8e9f0a1b2c3d4_0" is already in use by sandbox 7c1e. You have to remove that sandbox to be able to reuse that name.',
      ),
    ).toBe("sandbox-name-exists");
    expect(
      errorClassOf(
        'Error response from daemon: Conflict. The container name "/k8s_POD_web-0_default_0f9c_1" is already in use by container "3e1f". You have to remove (or rename) that container to be able to reuse that name.',
      ),
    ).toBe("sandbox-name-exists");
    expect(
      errorClassOf(
        'rpc error: code = Unknown desc = failed to reserve sandbox name "web-0_default_0f9c_1": name "web-0_default_0f9c_1" is reserved for "9d2a"',
      ),
    ).toMatch(/^sig:failed to reserve sandbox name/);
  });

  it("a network namespace gone before the ADD: /proc and /var/run/netns paths; the plugin's own thread namespace is not one", () => {
    expect(errorClassOf('Error adding network: failed to Statfs "/proc/93986/ns/net": no such file or directory')).toBe("netns-gone");
    expect(
      errorClassOf(
        'plugin type="bridge" failed (add): failed to open netns "/var/run/netns/cni-7d0e2a1b-9c3f": failed to Statfs "/var/run/netns/cni-7d0e2a1b-9c3f": no such file or directory',
      ),
    ).toBe("netns-gone");
    expect(errorClassOf('Failed to open current namespace: failed to Statfs "/proc/18661/task/1439572/ns/net": no such file or directory')).not.toBe(
      "netns-gone",
    );
  });

  it("the runtime's own socket refusing is the runtime unreachable, not a CNI connection refusal", () => {
    expect(
      errorClassOf(
        'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused"',
      ),
    ).toBe("runtime-unreachable");
  });

  it("case 001: three levels of escaped quotes are unescaped before matching", () => {
    const raw =
      'failed to \\"KillPodSandbox\\" for \\"58ed73cc-d879-1817-22c2-15734789c6df\\" with KillPodSandboxError: \\"rpc error: code = Unknown desc = failed to destroy network for sandbox \\\\\\"b8dd4f5155b9c51c7732863cc74aa2621051bb7ce31231dfe939a33eab6c77f7\\\\\\": plugin type=\\\\\\"calico\\\\\\" failed (delete): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/\\"';
    expect(unescapeNested(raw)).toContain('plugin type="calico" failed (delete): stat /var/lib/calico/nodename: no such file or directory');
    expect(errorClassOf(raw)).toBe("calico-nodename-missing");
  });
});

describe("errorClassOf: signatures", () => {
  it("strips wrappers, ids, numbers and quoted names so one cause is one class", () => {
    const a = errorClassOf(
      'rpc error: code = Unknown desc = failed to setup network for sandbox "2d21c280a65d6d40ae1a6aadab70b9e50e8430d6de17b5b41ed8ffecdb7d43f6": plugin type="bridge" failed (add): incompatible CNI versions; config is "1.0.0", plugin supports ["0.1.0" "0.2.0"]',
    );
    const b = errorClassOf(
      'failed to "CreatePodSandbox" for "demoapp-55c5f88dcb-kl7mf_default(5dfc305b-d641-4d2c-8199-7655b7a1ba32)" with CreatePodSandboxError: "Failed to create sandbox for pod \\"demoapp-55c5f88dcb-kl7mf_default(5dfc305b-d641-4d2c-8199-7655b7a1ba32)\\": rpc error: code = Unknown desc = failed to setup network for sandbox \\"ffff0000a65d6d40ae1a6aadab70b9e50e8430d6de17b5b41ed8ffecdb7d43f6\\": plugin type=\\"bridge\\" failed (add): incompatible CNI versions; config is \\"1.0.0\\", plugin supports [\\"0.1.0\\" \\"0.2.0\\"]"',
    );
    expect(a).toBe('sig:incompatible cni versions; config is "*", plugin supports ["*" "*"]');
    expect(b).toBe(a);
  });

  it("the kubelet's text messages of the dockershim era and CRI-O's wrapper reach the same cause", () => {
    const kubelet = errorClassOf(
      'RunPodSandbox from runtime service failed: rpc error: code = Unknown desc = failed to set up sandbox container "4f1e9ad2c0d7b3e8a6f5c4d3b2a19087f6e5d4c3b2a1908f7e6d5c4b3a291807" network for pod "web-6d4cf56db6-2xk9p": NetworkPlugin cni failed to set up pod "web-6d4cf56db6-2xk9p_default" network: neither iptables nor ip6tables usable',
    );
    const create = errorClassOf(
      'CreatePodSandbox for pod "web-6d4cf56db6-2xk9p_default(1b2c3d4e-1111-2222-3333-444455556666)" failed: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod "web-6d4cf56db6-2xk9p_default" network: neither iptables nor ip6tables usable',
    );
    const crio = errorClassOf(
      "failed to create pod network sandbox k8s_web-6d4cf56db6-2xk9p_default_1b2c3d4e_0(4f1e9ad2c0d7): neither iptables nor ip6tables usable",
    );
    expect(kubelet).toBe("sig:neither iptables nor ipNtables usable");
    expect(create).toBe(kubelet);
    expect(crio).toBe(kubelet);
  });

  it("null for empty text; stripWrappers keeps the cause", () => {
    expect(errorClassOf("")).toBeNull();
    expect(errorClassOf(null)).toBeNull();
    expect(stripWrappers("rpc error: code = Unknown desc = failed to create containerd task: cgroups: cgroup mountpoint does not exist: unknown")).toBe(
      "failed to create containerd task: cgroups: cgroup mountpoint does not exist: unknown",
    );
  });
});

describe("go-text", () => {
  it("reads Go-quoted strings, unterminated ones to the end", () => {
    expect(readGoQuoted('"a \\"b\\" \\x41\\u00e9\\n"rest', 0)).toEqual({ value: 'a "b" Aé\n', end: 22, terminated: true });
    expect(readGoQuoted('"cut here', 0)).toMatchObject({ value: "cut here", terminated: false });
  });

  it("splits klog structured messages and logrus lines", () => {
    expect(splitStructured('"Failed to stop sandbox" podSandboxID={"Type":"containerd","ID":"abc"} n=3')).toEqual({
      headline: "Failed to stop sandbox",
      fields: { podSandboxID: '{"Type":"containerd","ID":"abc"}', n: "3" },
    });
    expect(splitStructured('time="2024-02-15T23:28:31.785841950Z" level=info msg="RunPodSandbox for x" k=v')).toEqual({
      headline: "RunPodSandbox for x",
      fields: { time: "2024-02-15T23:28:31.785841950Z", level: "info", msg: "RunPodSandbox for x", k: "v" },
    });
    expect(parseKeyValues('a="x y" b=<\n\tline1\n > c=plain')).toEqual({ a: "x y", b: "line1", c: "plain" });
  });
});
