// The catch-up subscription of the stores that keep the log in SQL tables (SQLite, PostgreSQL): a loop
// that reads pages after its cursor and sleeps when caught up, woken by a commit it hears of or by its
// poll interval. It relies on one property of the store: positions become visible in position order,
// so that once `durableHead` says h, every event at or below h is readable and none will appear later.
import type { RecordedEvent, SubscribeOptions, Subscription } from '../event-store.js';
import { reportSubscriptionError } from '../report-subscription-error.js';

/** What a subscription reads; the store's connection behind it. */
export interface SubscriptionSource {
  /**
   * A position up to which every event is committed and on disk. `lookInFile`: the highest in the log
   * (0n for an empty log; when none past `after` is on disk yet, the highest committed once it is),
   * which finds other processes' commits; otherwise what this process knows to be on disk, without a
   * query (a store that cannot know that without asking simply asks).
   */
  durableHead(after: bigint, lookInFile: boolean): Promise<bigint>;
  /** Events with after < position <= upTo (of the given types), in log order, at most `limit`. */
  readPage(after: bigint, upTo: bigint, limit: number, types: readonly string[] | undefined): RecordedEvent[] | Promise<RecordedEvent[]>;
}

export interface SubscriptionTiming {
  /** How long to sleep when caught up before looking again; catches appends made by other processes. */
  pollIntervalMs: number;
  pageSize: number;
}

/**
 * One catch-up subscription: reads pages after its cursor and hands them to the handler one at a time;
 * when caught up it sleeps until woken by a commit in this process or until the poll interval passes.
 * Because positions only rise in commit order, "position > cursor" never skips or repeats an event,
 * however appends interleave with catch-up.
 */
export class PollingSubscription implements Subscription {
  readonly #source: SubscriptionSource;
  readonly #options: SubscribeOptions;
  readonly #timing: SubscriptionTiming;
  #stopped = false;
  #wakeSleeper: (() => void) | undefined;
  readonly #done: Promise<void>;

  constructor(source: SubscriptionSource, options: SubscribeOptions, timing: SubscriptionTiming, onEnd: () => void) {
    this.#source = source;
    this.#options = options;
    this.#timing = timing;
    this.#done = this.#run().finally(onEnd);
  }

  /**
   * A commit of events of these types is on disk: look again now rather than at the next poll. A
   * subscription to other types sleeps on (its cursor moves past them at its next look): a submit's
   * commits would wake every consumer of the log for nothing.
   */
  wake(committedTypes?: ReadonlySet<string>): void {
    const types = this.#options.wakeOn ?? this.#options.types;
    if (types && committedTypes && !types.some((type) => committedTypes.has(type))) return;
    this.#wakeSleeper?.();
  }

  /**
   * Resolves once the loop has ended, i.e. after any handler call in progress has settled.
   * Calling it from inside `handle` is fine, but awaiting it there would wait for that very call.
   */
  stop(): Promise<void> {
    this.#stopped = true;
    this.#wakeSleeper?.();
    return this.#done;
  }

  async #run(): Promise<void> {
    const { handle, types } = this.#options;
    const { pageSize } = this.#timing;
    let cursor = this.#options.after ?? 0n;
    // Woken by a commit of this process, a look needs no query for the head: what this process has on
    // disk is known, and covers every commit before it, another process's too. Other processes' commits
    // past it are looked for in the file when the subscription starts and at each poll (or, sooner,
    // reached by this process's next commit).
    let lookInFile = true;
    // Never call the handler before subscribe() has returned.
    await Promise.resolve();
    try {
      while (!this.#stopped) {
        const head = await this.#source.durableHead(cursor, lookInFile);
        const page = head > cursor ? await this.#source.readPage(cursor, head, pageSize, types) : [];
        // A type-filtered subscription takes a short page to mean every event up to head was examined, and
        // moves its cursor to head so as not to rescan non-matching events at every poll. One that takes
        // every event moves it only through what it was handed: an event a read did not see (a page that
        // came back short of a head it was told of) is read at the next look, never passed over.
        const last = page[page.length - 1];
        if (types === undefined) cursor = last ? last.position : cursor;
        else cursor = page.length === pageSize && last ? last.position : head > cursor ? head : cursor;
        if (page.length === 0) {
          lookInFile = await this.#sleep();
          continue;
        }
        await handle(page);
      }
    } catch (error) {
      this.#stopped = true;
      this.#report(error);
    }
  }

  /** True when the poll interval passed, false when woken (by a commit, or by stop()). */
  #sleep(): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (polled: boolean): void => {
        clearTimeout(timer);
        this.#wakeSleeper = undefined;
        resolve(polled);
      };
      const timer = setTimeout(() => done(true), this.#timing.pollIntervalMs);
      this.#wakeSleeper = () => done(false);
    });
  }

  #report(error: unknown): void {
    reportSubscriptionError(this.#options.onError, error);
  }
}
