/**
 * Byte-weighted progress of one phase of the ingest (unpack, ingest): the items'
 * bytes, as their threads tell them, rising only.
 */
/**
 * A phase's progress by bytes, reported only as it rises: items (uploads, files) of `sizes`
 * bytes count whole once `done`, partly as far as their threads told while running (`reader`:
 * progress.ts `workSteps`, capped at the item's size), plus bytes `add`ed for other work;
 * out of `passes` times the items' bytes (2 when storing counts as much as parsing).
 */
export class ByteProgress {
  private readonly part: number[];
  private readonly total: number;
  private partSum = 0;
  private doneSum = 0;
  private shown = 0;

  constructor(
    private readonly sizes: number[],
    private readonly report: (fraction: number) => void,
    passes = 1,
  ) {
    this.part = sizes.map(() => 0);
    this.total = passes * sizes.reduce((s, n) => s + n, 0) || 1;
  }

  /** The callback a running item's thread reports its bytes read to. */
  reader(i: number): (bytes: number) => void {
    return (bytes) => {
      const add = Math.min(bytes, this.sizes[i] - this.part[i]);
      this.part[i] += add;
      this.partSum += add;
      this.emit();
    };
  }

  /** Item `i` is done: it counts whole. */
  done(i: number): void {
    this.partSum -= this.part[i];
    this.part[i] = 0;
    this.doneSum += this.sizes[i];
    this.emit();
  }

  /** Bytes of other work done (stored bytes, by node). */
  add(bytes: number): void {
    this.doneSum += bytes;
    this.emit();
  }

  /** The phase is over: 1 if not reported yet (items of no bytes). */
  end(): void {
    if (this.shown < 1) this.report((this.shown = 1));
  }

  private emit(): void {
    const f = Math.min(1, (this.doneSum + this.partSum) / this.total);
    if (f <= this.shown) return;
    this.shown = f;
    this.report(f);
  }
}
