// The orders a planning reactor has read from the log and not yet planned, and the checkpoint they
// allow. Fair across company groups: one line per group, served in turn (fair-queue.ts). The
// checkpoint is the last position below which every order has its result, so a crash redoes only
// orders without one, and the order decider records nothing for an order that has one already.
import { FairQueue } from '../workers/fair-queue.js';
import { LowWaterMark } from '../checkpoints/low-water-mark.js';

export interface WaitingOrder {
  position: bigint;
  stream: string;
  group: string;
  orderId: number;
  /** The version of the order this entry was admitted for: 0 as submitted, more after an amend. */
  version: number;
  /** Its result is in the log (another replica's): the worker that is handed it only marks it finished. */
  resolved?: boolean;
}

export class PlanningBacklog {
  readonly #waiting = new FairQueue<WaitingOrder>();
  readonly #marks = new LowWaterMark();
  #lastAdmitted: bigint | undefined;
  /** Orders handed to a worker and not yet given back. */
  #planning = 0;
  readonly #idleWorkers: (() => void)[] = [];
  #wakeReader: (() => void) | undefined;
  // orders another replica holds, to be looked at again, by order id
  readonly #lookAgain = new Map<number, { order: WaitingOrder; timer: NodeJS.Timeout }>();
  // orders admitted and not yet handed to a worker, by order id: a result read from the log resolves them
  readonly #queued = new Map<number, WaitingOrder>();
  #stopping = false;

  /** `maxWaiting`: orders read ahead of the planner at most; the reader waits past it. */
  constructor(private readonly maxWaiting: number) {}

  get stopping(): boolean {
    return this.#stopping;
  }

  /** Orders waiting, being planned here or to be looked at again, and the company groups waiting. */
  counts(): { orders: number; groups: number } {
    return { orders: this.#waiting.length + this.#planning + this.#lookAgain.size, groups: this.#waiting.depths().size };
  }

  /**
   * Admits an order read from the log, once the backlog has room for it. False: stopping, it was not admitted.
   * `afterMs` > 0: handed out only that much later, as an order held elsewhere is (lookAgainIn); its
   * result read meanwhile finishes it without a worker.
   */
  async admit(order: WaitingOrder, afterMs = 0): Promise<boolean> {
    // after a resubscription the log comes again from the checkpoint: orders already admitted stay as they are
    if (this.#lastAdmitted !== undefined && order.position <= this.#lastAdmitted) return true;
    while (this.#waiting.length + this.#planning >= this.maxWaiting && !this.#stopping) {
      await new Promise<void>((resolve) => {
        this.#wakeReader = resolve;
      });
    }
    if (this.#stopping) return false;
    this.#marks.begin(order.position);
    this.#lastAdmitted = order.position;
    this.#supersede(order.orderId);
    if (afterMs > 0) {
      this.lookAgainIn(order, afterMs);
      return true;
    }
    this.#waiting.push(order.group, order);
    this.#queued.set(order.orderId, order);
    return true;
  }

  /** The next order to plan, once there is one; undefined when stopping. Give it back with `release`. */
  async next(): Promise<WaitingOrder | undefined> {
    while (!this.#stopping) {
      const next = this.#waiting.shift();
      if (next) {
        this.#queued.delete(next.orderId);
        this.#planning += 1;
        return next;
      }
      await new Promise<void>((resolve) => this.#idleWorkers.push(resolve));
    }
    return undefined;
  }

  /** A worker is done with an order (planned, held elsewhere, or cut short): the reader may admit another. */
  release(): void {
    this.#planning -= 1;
    this.#wakeReader?.();
  }

  /** The order has its result: the new checkpoint, when it moved. */
  finished(order: WaitingOrder): bigint | undefined {
    return this.#marks.finish(order.position);
  }

  /** Hands the order out again after `ms`, before its group's later orders (else it would wait behind the whole group's backlog). */
  lookAgainIn(order: WaitingOrder, ms: number): void {
    const timer = setTimeout(() => {
      this.#lookAgain.delete(order.orderId);
      this.#waiting.pushFront(order.group, order);
      this.#queued.set(order.orderId, order);
      this.wakeWorkers();
    }, ms);
    this.#lookAgain.set(order.orderId, { order, timer });
  }

  /**
   * The order's result for `version` (or its cancel: Infinity) is in the log: it resolves the entries
   * admitted for that version or an earlier one. One waiting to be looked at again is finished now (the new
   * checkpoint, when it moved, is returned); one still queued is handed out marked resolved. One
   * being planned here, or not in this backlog, is left as it is: its worker reads the stream anyway.
   */
  resolve(orderId: number, version: number): bigint | undefined {
    const queued = this.#queued.get(orderId);
    if (queued && queued.version <= version) queued.resolved = true;
    const held = this.#lookAgain.get(orderId);
    if (!held || held.order.version > version) return undefined;
    clearTimeout(held.timer);
    this.#lookAgain.delete(orderId);
    return this.finished(held.order);
  }

  // A newer version of an order admitted before (an amend): its earlier entry needs no planner, as the one
  // admitted now plans the order as it stands. Handed to a worker marked resolved, so its position is
  // finished in turn; one being planned is left to end (its result, for the earlier version, is void).
  #supersede(orderId: number): void {
    const queued = this.#queued.get(orderId);
    if (queued) queued.resolved = true;
    const held = this.#lookAgain.get(orderId);
    if (!held) return;
    clearTimeout(held.timer);
    this.#lookAgain.delete(orderId);
    held.order.resolved = true;
    this.#waiting.pushFront(held.order.group, held.order);
  }

  wakeWorkers(): void {
    for (const wake of this.#idleWorkers.splice(0)) wake();
  }

  /** Admits nothing more and hands nothing out; a reader waiting for room stops waiting. Idle workers wake at `wakeWorkers`. */
  stop(): void {
    this.#stopping = true;
    for (const { timer } of this.#lookAgain.values()) clearTimeout(timer);
    this.#wakeReader?.();
  }
}
