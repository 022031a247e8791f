// A catch-up subscription to $all as the port wants it: batches in log order, the next one only after
// the handler's promise settled, stop() that waits for the running handler.
//
// The client's subscription is a Node stream in object mode. It is read in paused mode: every buffered
// event (up to a batch) goes to one handler call, and while the handler runs nothing is read, so the
// stream's buffer fills and gRPC flow control stops the server: a slow handler slows delivery down
// instead of piling events up in memory.
import type { RecordedEvent, SubscribeOptions, Subscription } from '../event-store.js';
import { reportSubscriptionError } from '../report-subscription-error.js';

/** What the loop needs of the client's subscription (an AllStreamSubscription satisfies it). */
export interface LiveSource {
  /** A buffered item, or null when the buffer is empty. */
  read(): unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
  unsubscribe(): Promise<void>;
  destroy(): unknown;
}

export interface KurrentDbSubscriptionOptions extends Pick<SubscribeOptions, 'after' | 'handle' | 'onError'> {
  /** Turns a source item into an event; undefined to skip it (an unresolved link). */
  toEvent(item: unknown): RecordedEvent | undefined;
  /** Client-side check of the event type (the server filters too; see logView). */
  accepts(type: string): boolean;
  /** Most events handed to the handler at once. */
  batchSize: number;
}

export class KurrentDbSubscription implements Subscription {
  readonly #source: LiveSource;
  readonly #options: KurrentDbSubscriptionOptions;
  #stopped = false;
  #failure: unknown;
  #ended = false;
  #signalled = false;
  #wake: (() => void) | undefined;
  readonly #done: Promise<void>;

  constructor(source: LiveSource, options: KurrentDbSubscriptionOptions, onEnd: () => void = () => {}) {
    if (!Number.isInteger(options.batchSize) || options.batchSize < 1) throw new RangeError('batchSize must be a positive integer');
    this.#source = source;
    this.#options = options;
    // Listening to 'readable' keeps the stream paused: it buffers and tells when there is something to read.
    // The error listener stays for the stream's whole life: an 'error' nobody listens to crashes the process.
    source.on('readable', () => this.#signal());
    source.on('error', (error: unknown) => {
      this.#failure ??= error ?? new Error('KurrentDB subscription failed');
      this.#signal();
    });
    source.on('end', () => {
      this.#ended = true;
      this.#signal();
    });
    this.#done = this.#run().finally(onEnd);
  }

  /**
   * Resolves once the loop has ended and the server subscription is cancelled, i.e. after any handler call
   * in progress has settled. Calling it from inside `handle` is fine; awaiting it there would wait for that very call.
   */
  stop(): Promise<void> {
    this.#stopped = true;
    this.#signal();
    return this.#done;
  }

  async #run(): Promise<void> {
    const { handle, toEvent, accepts, batchSize } = this.#options;
    // Events at or before the cursor are skipped: a read from a position includes the event at it.
    let cursor = this.#options.after;
    // Never call the handler before subscribe() has returned.
    await Promise.resolve();
    try {
      while (!this.#stopped) {
        const batch: RecordedEvent[] = [];
        let pulled = 0;
        while (pulled < batchSize) {
          const item = this.#source.read();
          if (item === null || item === undefined) break;
          pulled++;
          const event = toEvent(item);
          if (!event || (cursor !== undefined && event.position <= cursor) || !accepts(event.type)) continue;
          batch.push(event);
        }
        if (pulled === 0) {
          // Events buffered before a failure are delivered first; the failure ends delivery once they are.
          if (this.#failure !== undefined) throw this.#failure;
          if (this.#ended) throw new Error('KurrentDB ended the subscription');
          await this.#nextSignal();
          continue;
        }
        const last = batch[batch.length - 1];
        if (!last) continue;
        cursor = last.position;
        await handle(batch);
      }
    } catch (error) {
      this.#stopped = true;
      this.#report(error);
    } finally {
      await this.#source.unsubscribe().catch(() => {});
      this.#source.destroy();
    }
  }

  #signal(): void {
    this.#signalled = true;
    this.#wake?.();
  }

  /** Resolves at the next readable/error/end/stop, or at once if one happened since the last wait. */
  #nextSignal(): Promise<void> {
    if (this.#signalled) {
      this.#signalled = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        this.#signalled = false;
        resolve();
      };
    });
  }

  #report(error: unknown): void {
    reportSubscriptionError(this.#options.onError, error);
  }
}
