// When the reactor has caught up with the log after a start: once it has read an event at or past
// the head the log had at the start, or when no batch came for a while (a log with nothing to read
// back since the checkpoint brings no batch at all, and a head unknown at the start leaves only this
// rule). Until then no window closes because its time ran out (consolidation-workflow.ts).

export class CatchUp {
  private done = false;
  private handling = false;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    /** The log's head at the start; undefined when the log could not be asked then. */
    private readonly startHead: bigint | undefined,
    private readonly idleMs: number,
    private readonly caughtUp: () => void,
  ) {}

  batchBegins(): void {
    this.handling = true;
    clearTimeout(this.idle);
  }

  /** `lastHandled`: the position of the last event handled so far. */
  batchEnded(lastHandled: bigint | undefined): void {
    this.handling = false;
    if (lastHandled !== undefined && this.startHead !== undefined && lastHandled >= this.startHead) this.reached();
    else this.awaitIdle();
  }

  /** Armed when a batch ends and at the start; a batch that begins disarms it. */
  awaitIdle(): void {
    if (this.done || this.handling) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.reached(), this.idleMs);
    this.idle.unref();
  }

  stop(): void {
    this.done = true;
    clearTimeout(this.idle);
  }

  private reached(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.idle);
    this.caughtUp();
  }
}
