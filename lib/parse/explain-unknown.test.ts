/** `explainUnknown`: what unread lines look like and what would help, on real-shaped lines. */
import { describe, expect, it } from "vitest";
import { explainUnknown } from "./explain-unknown";

describe("explainUnknown", () => {
  it("a `kubectl logs --prefix` output of an unknown format", () => {
    const t = explainUnknown([
      '[pod/web-7d9c6b5f4-x2x9q/web] 10.0.0.7 - - [19/May/2025:04:20:11 +0000] "GET /healthz HTTP/1.1" 200 2',
      '[pod/web-7d9c6b5f4-x2x9q/web] 10.0.0.7 - - [19/May/2025:04:20:21 +0000] "GET /healthz HTTP/1.1" 200 2',
    ]);
    expect(t).toBe("Lines start with `[pod/…/…]`: a `kubectl logs --prefix` output of a format bootline does not know.");
  });

  it("journal lines with French month names: give the year", () => {
    const t = explainUnknown([
      'janv. 12 08:14:03 node-p kubelet[1042]: E0112 08:14:03.123456    1042 kubelet.go:2855] "Container runtime network not ready"',
      "janv. 12 08:14:08 node-p kubelet[1042]: I0112 08:14:08.2    1042 x.go:1] y",
    ]);
    expect(t).toMatch(/^Month names in French \(`janv\. 12/);
    expect(t).toContain("give the year");
  });

  it("German month names (dmesg -T style)", () => {
    expect(
      explainUnknown([
        "[Do Okt 13 09:12:44 2024] cni0: port 2(veth1a2b3c4d) entered disabled state",
        "[Do Okt 13 09:12:45 2024] device veth1a2b3c4d left promiscuous mode",
      ]),
    ).toMatch(/^Month names in German/);
  });

  it("JSON objects without a time key", () => {
    const t = explainUnknown([
      '{"level":"info","msg":"Starting IPAM","component":"ipamd"}',
      '{"level":"error","msg":"Failed to allocate","component":"ipamd"}',
    ]);
    expect(t).toBe(
      "Lines are JSON objects without a time key (keys: level, msg, component, …). Records can only be placed in time with a stamp: export with timestamps.",
    );
  });

  it("JSON objects with a time key in an unknown layout", () => {
    expect(explainUnknown(['{"when":1,"timestamp":"2025-05-19T04:20:07Z","text":"x"}'])).toMatch(
      /^Lines are JSON objects \(keys: when, timestamp, text, …\) in a layout bootline does not know/,
    );
  });

  it("a pretty-printed JSON document", () => {
    expect(explainUnknown(["{", '  "insertId": "abc",', '  "jsonPayload": {'])).toMatch(/not one JSON object each/);
  });

  it("a table", () => {
    const t = explainUnknown([
      "LAST SEEN   TYPE      REASON                   OBJECT          MESSAGE",
      "2m          Warning   FailedCreatePodSandBox   pod/web-1       Failed to create pod sandbox",
    ]);
    expect(t).toBe("A table with columns LAST SEEN, TYPE, REASON, OBJECT and 1 more. Use `-o json` or `-o yaml` for full times.");
  });

  it("only prompts", () => {
    expect(explainUnknown(["root@node-p:~# crictl runp pod-config.json", "root@node-p:~# echo $?"])).toMatch(/only shell prompts/);
  });

  it("a partly read file names the format and the shape of the rest", () => {
    const t = explainUnknown([], { format: "klog", parsedPercent: 41.6, skippedLines: ['{"level":"info","msg":"x"}', '{"level":"info","msg":"y"}'] });
    expect(t).toBe(
      "Only 42% of the lines were read as klog; the others: lines are JSON objects without a time key (keys: level, msg, …). Records can only be placed in time with a stamp: export with timestamps.",
    );
  });

  it("a time at the line start in an unknown layout", () => {
    expect(explainUnknown(["2025/05/19 04:20:07 [warn] 12#12: *3 upstream timed out", "2025/05/19 04:20:09 [warn] 12#12: *4 upstream timed out"])).toMatch(
      /^Lines start with a time \(`2025\/05\/19 04:20:07/,
    );
  });

  it("anything else quotes the first line", () => {
    expect(explainUnknown(["hello", "world"])).toBe("No line looks like a log record bootline knows (first line: `hello`).");
    expect(explainUnknown(["", "  "])).toBe("The file is empty (only blank lines).");
  });
});
