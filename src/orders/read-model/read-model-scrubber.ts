// The scrubber: a background walk over the read model, at a bounded rate, comparing each order's
// documents with those folded from the log. A checksum finds bytes that rotted; it cannot find an
// edit that recomputed it (a row "fixed" by hand, a restore from the wrong backup): only the log can.
// Each pass reads the whole log from its beginning, so rot in the log is found before anyone needs
// the event, and ends with the orders the read model holds that the log did not name.
import { isDeepStrictEqual } from 'node:util';
import type { EventStore } from '../../eventstore/event-store.js';
import { isOrderEvent } from '../read-order-stream.js';
import { foldOrderDocuments } from '../../../projections/fold-order-documents.js';
import type { OrderReadModel } from './order-read-model.js';
import { eventsOfOrder } from './order-from-log.js';
import { OrderIdBits } from './order-id-bits.js';
import { ScrubPace } from './scrub-pace.js';

export interface ScrubberOptions {
  store: EventStore;
  /** The served read model: a document failing its checksum is repaired (and counted) as it is read. */
  readModel: ScrubbedReadModel;
  /** Orders compared per second at most. */
  ordersPerSecond: number;
  /** An order whose stored documents differed from the log, now repaired: a warning and the repair counter. */
  repaired(orderId: number, documents: readonly ('order' | 'pallet contents')[]): void;
  log(message: string, error?: unknown): void;
  /** Verifies the log's hash chain, once per pass before the orders: its outcome in one line. A break stops the pass before any repair. */
  verifyLog?(betweenPages: () => Promise<void>): Promise<{ ok: boolean; line: string }>;
}

/** What the scrubber reads and repairs. */
export type ScrubbedReadModel = Pick<OrderReadModel, 'checkpoint' | 'highestOrderId' | 'getById' | 'palletContents' | 'repair'>;

export interface ScrubProgress {
  /** Orders compared in the pass under way. */
  checked: number;
  /** Passes over the whole read model finished since the start. */
  passes: number;
  lastFullPassAt: Date | undefined;
  /** The last order found differing from the log, else the outcome of the last pass (or of the pass stopped by a failure). */
  lastFinding: string;
  /** The outcome of the last verification of the log's hash chain; undefined before the first or without verifyLog. */
  logChain?: { ok: boolean; line: string } | undefined;
}

export interface Scrubber {
  progress(): ScrubProgress;
  stop(): Promise<void>;
}

const LOG_PAGE = 1000;
// The projector moving between the read of a document and that of its events: compared again, a few times.
const ATTEMPTS = 3;
const AFTER_FAILURE_MS = 5000;
// Between passes at least this: a read model with few orders or none must not be compared in a loop.
const BETWEEN_PASSES_MS = 1000;

export function startReadModelScrubber(options: ScrubberOptions): Scrubber {
  return new ReadModelScrubber(options);
}

/** One pass after another over the log and the read model, at the pace asked for, until stopped. */
class ReadModelScrubber implements Scrubber {
  readonly #progress: ScrubProgress = { checked: 0, passes: 0, lastFullPassAt: undefined, lastFinding: 'no pass finished yet' };
  #lastDifference: string | undefined;
  #stopped = false;
  readonly #intervalMs: number;
  readonly #pace: ScrubPace;
  readonly #running: Promise<void>;

  constructor(private readonly options: ScrubberOptions) {
    this.#intervalMs = 1000 / options.ordersPerSecond;
    this.#pace = new ScrubPace(this.#intervalMs);
    this.#running = this.#run();
  }

  progress(): ScrubProgress {
    return { ...this.#progress };
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#pace.interrupt();
    await this.#running;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      try {
        await this.#pass();
        await this.#pace.pause(Math.max(BETWEEN_PASSES_MS, this.#intervalMs));
      } catch (error) {
        this.#progress.lastFinding = `${new Date().toISOString()}: the pass stopped: ${(error as Error).message}`;
        this.options.log('read-model scrubber: the pass stopped; starting again', error);
        await this.#pace.pause(AFTER_FAILURE_MS);
      }
    }
  }

  async #pass(): Promise<void> {
    const progress = this.#progress;
    progress.checked = 0;
    if (!(await this.#logChainHolds())) return;
    const seen = new OrderIdBits();
    await this.#scrubOrdersOfLog(seen);
    // Ids the log did not name in this pass: holes, orders submitted since, or rows the log cannot explain.
    const highest = await this.options.readModel.highestOrderId();
    for (let id = 1; id <= highest && !this.#stopped; id++) if (!seen.has(id)) await this.#scrub(id, undefined);
    if (this.#stopped) return;
    progress.passes++;
    progress.lastFullPassAt = new Date();
    progress.lastFinding =
      this.#lastDifference ??
      `${progress.lastFullPassAt.toISOString()}: pass ${progress.passes} over ${progress.checked} orders found no difference`;
  }

  // A log whose chain breaks is not the truth to repair from: a "repair" would copy a changed event into
  // the read model. Nothing is compared until the log is restored; readiness says why.
  async #logChainHolds(): Promise<boolean> {
    const { verifyLog } = this.options;
    if (!verifyLog) return true;
    const progress = this.#progress;
    progress.logChain = await verifyLog(() => this.#pace.pause(0));
    if (progress.logChain.ok) return true;
    progress.passes++;
    progress.lastFullPassAt = new Date();
    progress.lastFinding = `${progress.lastFullPassAt.toISOString()}: no order compared or repaired: the log's hash chain is broken (${progress.logChain.line})`;
    return false;
  }

  /** Every order the log names, in log order, each once. */
  async #scrubOrdersOfLog(seen: OrderIdBits): Promise<void> {
    for (let after: bigint | undefined; !this.#stopped; ) {
      const page = await this.options.store.readAll(after, LOG_PAGE);
      const last = page[page.length - 1];
      if (!last) break;
      after = last.position;
      // The embedded log answers without leaving the turn: requests go first between pages.
      await this.#pace.pause(0);
      for (const event of page) {
        if (this.#stopped || !isOrderEvent(event, 'OrderSubmitted') || seen.has(event.data.order_id)) continue;
        seen.add(event.data.order_id);
        await this.#scrub(event.data.order_id, event.stream);
      }
    }
  }

  async #scrub(id: number, streamHint: string | undefined): Promise<void> {
    await this.#pace.nextOrder();
    if (this.#stopped) return;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const differing = await compareWithLog(this.options.store, this.options.readModel, id, streamHint);
      if (differing === 'moved') continue;
      if (differing.length > 0) {
        this.#lastDifference = `${new Date().toISOString()}: order ${id}: its ${differing.join(' and ')} differed from the log; repaired`;
        this.#progress.lastFinding = this.#lastDifference;
        this.options.repaired(id, differing);
      }
      break;
    }
    this.#progress.checked++;
  }
}

/**
 * Compares the order's documents with those folded from the log, and repairs them where they differ:
 * what differed (nothing: none), or 'moved' when the read model moved meanwhile and the order must be
 * compared again.
 */
async function compareWithLog(
  store: EventStore,
  readModel: ScrubbedReadModel,
  id: number,
  streamHint: string | undefined,
): Promise<Differing[] | 'moved'> {
  const checkpoint = await readModel.checkpoint();
  const [order, pallets] = await Promise.all([readModel.getById(id), readModel.palletContents(id)]);
  // An id the log did not name in this pass, with nothing stored: a hole in the ids, or an order the
  // projector has yet to reach. Not searched for in the whole log: that would cost a log read per hole.
  if (streamHint === undefined && !order && !pallets) return [];
  const events = await eventsOfOrder(store, id, streamHint ?? order?.stream);
  if ((await readModel.checkpoint()) !== checkpoint) return 'moved';
  const truth = foldOrderDocuments(id, events, checkpoint ?? -1n);
  const differing: Differing[] = [];
  // As stored: JSON, without the undefined members a fold may hold.
  if (!isDeepStrictEqual(asStored(order), asStored(truth.order))) differing.push('order');
  if (!isDeepStrictEqual(asStored(pallets), asStored(truth.pallets))) differing.push('pallet contents');
  if (differing.length === 0) return [];
  // A document ahead of the checkpoint is an apply half-way through, not a difference: compared again.
  if (!(await readModel.repair(id, events))) return 'moved';
  return differing;
}

type Differing = 'order' | 'pallet contents';

function asStored(document: unknown): unknown {
  return document === undefined ? undefined : JSON.parse(JSON.stringify(document));
}
