/**
 * The check of every rule's samples (schema.ts `samples`): the sample's lines go through the
 * whole reading of a pasted file (the in-memory reference, reference.ts: sniff, parse, classify,
 * boots) and the detect step (detect-boot.ts), and the rule must give exactly one finding with
 * the stated match count and values, or none for a `none` sample. Used by
 * lib/ingest/rule-files.test.ts on every rule file; no database.
 */
import type { RuleBook } from "../detect/rules/compile";
import type { Finding } from "../detect/types";
import { toBootEvent } from "../model/boot-event";
import { detectBoot } from "./detect-boot";
import { analyseBundle } from "./reference";

/** Year-less stamps in samples are read as of this time (UTC ms: the end of 2026). */
export const SAMPLE_COLLECTED_MS = Date.UTC(2026, 11, 31, 23, 0, 0);

/** Every finding of every boot of one file's text, with the rules of `book`. */
export function findingsOfText(text: string, path: string, book: RuleBook): Finding[] {
  const a = analyseBundle([{ path, status: "read", data: Buffer.from(text, "utf8"), mtimeMs: SAMPLE_COLLECTED_MS }], {
    collectedMs: SAMPLE_COLLECTED_MS,
    year: null,
    uploadMs: SAMPLE_COLLECTED_MS,
    uploadName: "sample-node",
  });
  const events = a.events.map((e, i) => ({ e, ev: toBootEvent(e, i + 1, e.fileIdx + 1) }));
  const out: Finding[] = [];
  for (const [node, boots] of a.nodes)
    boots.forEach((b, bi) => {
      const mine = events.filter((x) => x.e.node === node && x.e.boot === bi).map((x) => x.ev);
      out.push(...detectBoot({ node, bootKey: b.bootKey, start: b.start, end: b.end, startApprox: b.startApprox }, mine, book).findings);
    });
  return out;
}

/** What is wrong with the samples of every rule of `book`: one line per sample that fails (empty when all hold). */
export function checkRuleSamples(book: RuleBook): string[] {
  const problems: string[] = [];
  for (const r of book.rules)
    r.spec.samples.forEach((s, i) => {
      const where = `${r.set} rule ${r.spec.name} sample ${i + 1}`;
      const mine = findingsOfText(s.lines, s.path ?? "journal.log", book).filter((f) => f.detector === r.detector);
      if (s.give === "none") {
        if (mine.length) problems.push(`${where}: must give none, gave ${mine.length} (${mine.map((f) => f.title).join("; ")})`);
        return;
      }
      if (mine.length !== 1) {
        problems.push(`${where}: must give one finding, gave ${mine.length}`);
        return;
      }
      const m = mine[0].metrics;
      if (m.matches !== s.give.matches) problems.push(`${where}: must count ${s.give.matches} matches, counted ${String(m.matches)}`);
      for (const [g, want] of Object.entries(s.give.values ?? {})) {
        const got = ((m.matchedValues as string[]) ?? []).filter((v) => v.startsWith(`${g}=`)).map((v) => v.slice(g.length + 1).replace(/ \(\d+\)$/, ""));
        if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${where}: ${g} must be ${JSON.stringify(want)}, was ${JSON.stringify(got)}`);
      }
      if (s.give.cleared !== undefined) {
        const cleared = typeof m.clearedAfterBootS === "number";
        if (cleared !== s.give.cleared) problems.push(`${where}: must be ${s.give.cleared ? "cleared" : "still open"}, was ${cleared ? "cleared" : "open"}`);
      }
    });
  return problems;
}
