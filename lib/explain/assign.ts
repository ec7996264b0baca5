/**
 * Messages counted per stored template: a Drain tree (lib/patterns/drain.ts) seeded with a boot's
 * templates (most frequent first, as the merge places them), then fed the messages of a time
 * range; a message counts for the seeded template it joins. A message that starts a template of
 * its own (the tree placed it apart, which the ingest's own tree did not) counts under that
 * template's text with no key.
 */
import { Drain, templateText, templateTokens } from "../patterns/drain";
import { maskedTokens } from "../patterns/mask";

interface Slot {
  key: string | null;
  template: string;
  count: number;
}

export class TemplateCounter {
  private readonly drain = new Drain<Slot | null>(() => null);
  private readonly slots: Slot[] = [];

  /** `templates`: the boot's templates with their keys (lib/patterns/merge.ts), most frequent first. */
  constructor(templates: ReadonlyArray<{ key: string; template: string }>) {
    for (const t of templates) {
      const c = this.drain.add(templateTokens(t.template));
      if (!c.stats) this.slots.push((c.stats = { key: t.key, template: t.template, count: 0 }));
    }
  }

  /** Counts one message. */
  add(message: string): void {
    const c = this.drain.add(maskedTokens(message));
    if (!c.stats) this.slots.push((c.stats = { key: null, template: "", count: 0 }));
    c.stats.count++;
    if (c.stats.key === null) c.stats.template = templateText(c.tokens);
  }

  /** Counts by template key (`~` + template text for a template not seeded), events counted > 0 only. */
  counts(): Map<string, { key: string | null; template: string; count: number }> {
    const out = new Map<string, Slot>();
    for (const s of this.slots) if (s.count > 0) out.set(s.key ?? `~${s.template}`, { ...s });
    return out;
  }
}
