// The one place that repairs a damaged read-model document, for every adapter: an adapter throws
// DamagedDocument rather than return a document that does not match its checksum, and this folds
// the order again from the log by the same projections (through the adapter's repair), stores it,
// and reads again. Every read-model document can be derived from the log, so a bad one is repaired on
// the spot rather than refused. Where the log cannot be read either, UnrepairableDocument (503).
import type { EventStore, RecordedEvent } from '../../eventstore/event-store.js';
import { DamagedDocument } from './document-checksum.js';
import { eventsOfOrder } from './order-from-log.js';
import type { OrderReadModel } from './order-read-model.js';

export class UnrepairableDocument extends Error {
  constructor(
    readonly orderId: number,
    cause: unknown,
  ) {
    super(
      `order ${orderId}: its read-model document is damaged and the event log could not be read to repair it (${(cause as Error)?.message ?? String(cause)})`,
    );
    this.name = 'UnrepairableDocument';
  }
}

export interface RepairHooks {
  /** One per repaired order: a warning naming it, and the repair counter. */
  repaired(damage: DamagedDocument): void;
  /**
   * Why the log cannot be trusted just now (its hash chain found broken), else undefined. A repair
   * then fails as unrepairable (503) rather than copy a changed event into the read model.
   */
  untrustedLog?(): string | undefined;
}

export function selfRepairingReadModel(inner: OrderReadModel, store: EventStore, hooks: RepairHooks): OrderReadModel {
  const repairs = new Map<number, Promise<void>>();

  // Concurrent requests for one damaged order share its repair, and it counts once.
  const repair = (damage: DamagedDocument): Promise<void> => {
    const running = repairs.get(damage.orderId);
    if (running) return running;
    const done = (async () => {
      let events: RecordedEvent[];
      try {
        const distrust = hooks.untrustedLog?.();
        if (distrust) throw new Error(distrust);
        events = await eventsOfOrder(store, damage.orderId, damage.streamHint);
      } catch (error) {
        throw new UnrepairableDocument(damage.orderId, error);
      }
      if (!(await inner.repair(damage.orderId, events))) {
        throw new UnrepairableDocument(damage.orderId, new Error('an apply of its later events is writing it just now; ask again'));
      }
      hooks.repaired(damage);
    })().finally(() => repairs.delete(damage.orderId));
    repairs.set(damage.orderId, done);
    return done;
  };

  // One list page may hold many damaged rows, each repaired in turn; a row still damaged after its own
  // repair means the repair does not hold (a write that does not stick), and that is not retried.
  const repairing = async <T>(call: () => Promise<T>): Promise<T> => {
    const repaired = new Set<number>();
    for (;;) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof DamagedDocument) || repaired.has(error.orderId)) throw error;
        repaired.add(error.orderId);
        await repair(error);
      }
    }
  };

  return {
    checkpoint: () => inner.checkpoint(),
    apply: (events) => repairing(() => inner.apply(events)),
    logIdentity: () => inner.logIdentity(),
    highestOrderId: () => inner.highestOrderId(),
    repair: (id, events) => inner.repair(id, events),
    reset: () => inner.reset(),
    getById: (id) => repairing(() => inner.getById(id)),
    getViewJson: (id) => repairing(() => inner.getViewJson(id)),
    readyViewJson: (id) => inner.readyViewJson(id),
    palletContents: (id) => repairing(() => inner.palletContents(id)),
    findNewest: (companyGroup, value) => repairing(() => inner.findNewest(companyGroup, value)),
    list: (query) => repairing(() => inner.list(query)),
    close: () => inner.close(),
  };
}
