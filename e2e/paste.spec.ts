/**
 * Paste, preview and rename: a few kubelet klog lines pasted on the upload page (outside any
 * field) land in the paste box; the preview names the format and the failed sandbox attempt
 * before anything is stored; Ctrl+Enter uploads them; the incident lists the node, named after
 * the paste, as "not named by the logs"; the reviewer renames it inline and the old permalink of
 * its boot leads to the new name.
 */
import { expect, test } from "@playwright/test";
import { assertLocalBaseURL, screenshot, uniqueTitle, uploadPage } from "./pages";

/**
 * Kubelet (klog, structured messages as kubelet 1.2x writes them) failing one pod's sandbox
 * because Calico's nodename file is not there yet; no line names the node.
 */
const SANDBOX = "5c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d";
const CALICO = `failed to setup network for sandbox \\"${SANDBOX}\\": plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/`;
const KLOG = [
  `I0314 02:30:01.100200    1234 kubelet.go:2321] "Starting kubelet main sync loop"`,
  `E0314 02:30:05.412345    1234 remote_runtime.go:176] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = ${CALICO}"`,
  `E0314 02:30:05.412501    1234 kuberuntime_sandbox.go:72] "Failed to create sandbox for pod" err="rpc error: code = Unknown desc = ${CALICO}" pod="kube-system/coredns-5d78c9869d-x7k2p"`,
  `I0314 02:30:09.002000    1234 kubelet.go:2400] "SyncLoop (PLEG): event for pod" pod="kube-system/calico-node-4kq9z" event={"ID":"1f2e3d4c","Type":"ContainerStarted"}`,
].join("\n");

let incidentId: string | null = null;

test.afterAll(async ({ request }) => {
  if (incidentId) await request.delete(`/api/incidents/${incidentId}`);
});

test("a paste is previewed, uploaded, and its node marked and renamed", async ({ page, request, baseURL }, info) => {
  assertLocalBaseURL(baseURL);
  const upload = uploadPage(page);
  await upload.open();

  // paste on the page itself (focus on no field): the text lands in the paste box
  await page.getByRole("heading", { name: "Upload a log bundle" }).click();
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.setData("text/plain", text);
    document.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, KLOG);
  const box = page.getByLabel("Paste log text");
  await expect(box).toHaveValue(KLOG);
  await expect(box).toBeFocused();

  // the preview, before the incident is named
  const preview = page.getByTestId("paste-preview");
  await expect(preview.getByTestId("preview-format")).toHaveText("klog");
  await expect(preview.getByTestId("preview-records")).toHaveText("4");
  await expect(preview.getByTestId("preview-lines")).toContainText("4 / 4");
  await expect(preview.getByTestId("preview-attempts")).toHaveText("1 failed sandbox attempt");
  await expect(preview.getByTestId("preview-error-class")).toHaveText("calico-nodename-missing");
  await expect(preview.getByTestId("preview-node")).toHaveText(/^pasted-\d{4}-\d\d-\d\d-\d{4}$/);
  await expect(preview.getByTestId("node-unnamed").first()).toBeVisible();
  const pastedNode = (await preview.getByTestId("preview-node").textContent())!;
  await screenshot(page, info, "paste-preview");

  // name the incident, then Ctrl+Enter from the paste box uploads
  await page.getByLabel("Incident title").fill(uniqueTitle(info, "paste"));
  await box.focus();
  await page.keyboard.press("Control+Enter");
  incidentId = await upload.waitForIncident();

  // the node is marked, with a tooltip that says why and how to fix it
  const row = page.locator(`[data-testid="node-row"][data-node="${pastedNode}"]`);
  const mark = row.getByTestId("node-unnamed");
  await expect(mark).toHaveText(/not named by the logs/);
  await expect(mark).toHaveAttribute("title", /named it after the uploaded file/);
  await mark.focus();
  await expect(mark.getByRole("tooltip")).toBeVisible();
  const md = await (await request.get(`/api/incidents/${incidentId}/export.md`)).text();
  expect(md).toContain(`${pastedNode} (not named by the logs) |`);
  await screenshot(page, info, "paste-incident-unnamed");

  // the boot page names the node with the same mark
  const bootKey = await page.locator(`[data-testid="boot-row"][data-node="${pastedNode}"]`).first().getAttribute("data-boot");
  await page
    .locator(`[data-testid="boot-row"][data-node="${pastedNode}"]`)
    .first()
    .getByRole("link", { name: /timeline of/ })
    .click();
  await expect(page.getByTestId("crumb-node")).toHaveText(pastedNode);
  await expect(page.getByTestId("node-unnamed")).toBeVisible();
  await expect(page.getByTestId("finding-approximate").first()).toBeVisible();
  await screenshot(page, info, "paste-boot-unnamed");
  await page.goBack();

  // rename it inline (keyboard: the form opens on the button, Enter saves)
  await row.getByRole("button", { name: `rename node ${pastedNode}` }).click();
  const input = page.getByLabel(`new name of node ${pastedNode}`);
  await expect(input).toBeFocused();
  await input.fill("ip-10-0-3-17.ec2.internal");
  await input.press("Enter");
  const renamed = page.locator(`[data-testid="node-row"][data-node="ip-10-0-3-17.ec2.internal"]`);
  await expect(renamed.getByTestId("node-name")).toHaveText("ip-10-0-3-17.ec2.internal");
  await expect(renamed.getByTestId("node-unnamed")).toHaveCount(0);
  await expect(renamed).toContainText(pastedNode); // the old name, kept as another name
  await screenshot(page, info, "paste-incident-renamed");

  // the old permalink of the boot leads to the new name
  await page.goto(`/i/${incidentId}/n/${encodeURIComponent(pastedNode)}/b/${bootKey}`);
  await expect(page).toHaveURL(new RegExp(`/n/ip-10-0-3-17\\.ec2\\.internal/b/${bootKey}`));
  await expect(page.getByTestId("crumb-node")).toHaveText("ip-10-0-3-17.ec2.internal");
});

test("text bootline cannot read: the preview says so and why, nothing is stored", async ({ page, baseURL }, info) => {
  assertLocalBaseURL(baseURL);
  await uploadPage(page).open();
  const box = page.getByLabel("Paste log text");
  await box.fill("$ kubectl get nodes\nNAME      STATUS     ROLES    AGE   VERSION\nworker-1  NotReady   <none>   12d   v1.29.4\n");
  const preview = page.getByTestId("paste-preview");
  await expect(preview.getByTestId("preview-file")).toHaveAttribute("data-read", "no");
  await expect(preview.getByTestId("preview-not-read")).toContainText("Not read");
  await expect(preview.getByTestId("preview-not-read")).toContainText("A table with columns NAME, STATUS");
  await expect(preview).toContainText("Nothing is stored until you upload it.");
  await screenshot(page, info, "paste-preview-not-read");
});
