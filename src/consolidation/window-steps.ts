// Each window's steps (its closing, its planning, its write-out, an order planned alone) run off the
// log's handler, one after the other; a step that fails is logged and tried again after a growing
// pause, until it passes or the reactor stops. Every step is idempotent, so trying again is safe.
import type { Log } from '../eventstore/follow-log.js';
import { retryWithBackoff } from '../storage/retry-with-backoff.js';

export class WindowSteps {
  /** Each window's last step. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly running = new Set<Promise<void>>();
  private readonly stopped = new AbortController();

  constructor(private readonly log: Log) {}

  /** Runs `step` after the window's earlier steps. */
  after(consolidation: string, step: () => Promise<void>): void {
    if (this.stopped.signal.aborted) return;
    const run = (this.chains.get(consolidation) ?? Promise.resolve()).then(async () => {
      await retryWithBackoff(step, {
        firstDelayMs: 1000,
        signal: this.stopped.signal,
        // a pending retry alone does not keep the process alive
        unref: true,
        onFailure: (error, _failures, delay) =>
          this.log(`consolidation ${consolidation}: a step failed; trying again in ${delay} ms`, error),
      });
    });
    this.chains.set(consolidation, run);
    this.running.add(run);
    void run.finally(() => {
      this.running.delete(run);
      if (this.chains.get(consolidation) === run) this.chains.delete(consolidation);
    });
  }

  /** Takes no step from now on; resolves once the steps under way have ended. */
  stop(): Promise<void> {
    this.stopped.abort();
    return Promise.allSettled([...this.running]).then(() => undefined);
  }
}
