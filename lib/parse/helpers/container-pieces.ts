/**
 * Joining of a container runtime's split lines, shared by cri-log.ts (`P` pieces until the
 * `F` that ends them) and docker-json.ts (`log` values without their
 * trailing `\n`, Docker splits at 16 KiB). The first piece is the record (returned at once,
 * completed in place when its last piece arrives, so its line number stays the first
 * piece's); the other pieces are continuations. The joined payload is parsed once, through
 * the component parsers, with the container name from the file's path as identifier.
 */
import { envelopeRecord } from "./component";
import type { LineParser, LineResult, ParseContext, ParsedRecord, WallTime } from "../types";

interface PendingPiece {
  record: ParsedRecord;
  stream: string;
  time: WallTime;
  payload: string;
}

export abstract class ContainerLineParser implements LineParser {
  protected readonly container: string | undefined;
  private partial: PendingPiece | null = null;

  constructor(ctx: ParseContext, containerFromPath: (path: string | undefined) => string | undefined) {
    this.container = containerFromPath(ctx.path);
  }

  abstract parseLine(line: string): LineResult;

  /** The record for a complete payload: envelope time and container, plus `fields.stream`. */
  protected build(time: WallTime, stream: string, payload: string): ParsedRecord {
    const rec = envelopeRecord({ time, ident: this.container }, payload);
    if (rec.fields) rec.fields.stream = stream;
    else rec.fields = { stream };
    return rec;
  }

  /**
   * Takes one piece. Returns a continuation when it extends the pending line of the same
   * stream; else finishes any pending line and returns the new record (pending when not `full`).
   */
  protected piece(
    time: WallTime,
    stream: string,
    payload: string,
    full: boolean,
  ): { type: "continuation"; text: string } | { type: "record"; record: ParsedRecord } {
    const p = this.partial;
    if (p && p.stream === stream) {
      p.payload += payload;
      if (full) this.complete();
      return { type: "continuation", text: "" };
    }
    this.complete();
    const record = this.build(time, stream, payload);
    if (!full) this.partial = { record, stream, time, payload };
    return { type: "record", record };
  }

  /** Finishes a pending line (at the next record or at the end of the file). */
  protected complete(): void {
    const p = this.partial;
    if (!p) return;
    this.partial = null;
    const done = this.build(p.time, p.stream, p.payload);
    const target = p.record as unknown as Record<string, unknown>;
    for (const k of Object.keys(target)) delete target[k];
    Object.assign(target, done);
  }

  /** Whether a line of `stream` would extend a pending line. */
  protected pending(stream: string): boolean {
    return this.partial?.stream === stream;
  }

  finish(): void {
    this.complete();
  }
}
