// The order read model as requests read it: one pipeline from the stored document to the answer, each
// stage answering what the one before it cannot.
//   1. The store (sqlite-order-read-model.ts, mongodb-order-read-model.ts) checks each document against
//      its checksum and throws DamagedDocument rather than return one that fails it.
//   2. The repairs (self-repairing-read-model.ts): such a document is folded again from the log, stored,
//      and read again. The projector writes through this stage too.
//   3. The log (order-from-log.ts): while the read model is rebuilt (from empty at start, or after damage)
//      it is not current, and a read of one order is folded from the order's events by the same
//      projections instead; a read that finds the store's storage damaged starts that rebuild and is
//      answered so. A list waits for the rebuilt read model: folding every order of a group per request
//      would read the whole log for each.
//   4. Read-your-writes across rebuilds (visible): a command's change is visible at once through the log,
//      and the read model counts as current again only once it holds that change too.
// The projector is asked how far it has applied the log and for rebuilds; it knows nothing of this.
import type { EventStore } from '../../eventstore/event-store.js';
import { NotVisibleInTime, visibleWithin } from '../../eventstore/visibility-deadline.js';
import { isDamage } from '../../storage/damaged-storage.js';
import { orderFromLog, type OrderDocuments } from './order-from-log.js';
import type { OrderDocument } from '../../../projections/order-view.js';
import type { OrderListQuery, OrderReadModel, OrderReads, OrderViewJson } from './order-read-model.js';
import type { Projector } from './projector.js';
import { UnrepairableDocument } from './self-repairing-read-model.js';

export interface ServedReadModel extends OrderReads, Pick<OrderReadModel, 'checkpoint' | 'highestOrderId' | 'repair'> {
  /** Reads may go to the read model: it is not being rebuilt, and holds every change a command was told is visible. */
  current(): boolean;
  /** A request found the read model's storage damaged: it is rebuilt from the log, once however many find it. */
  damaged(error: Error): void;
  /** Read-your-writes for a command that appended at `position`. */
  visible(position: bigint): Promise<void>;
}

export interface ServedReadModelOptions {
  /** ORDERS_VISIBLE_WITHIN_MS. */
  visibleWithinMs: number;
  /**
   * Why the log cannot be trusted just now (its hash chain broken); a read from it then fails as
   * UnrepairableDocument (503) rather than serve a changed event.
   */
  untrustedLog?: () => string | undefined;
}

type ProjectorProgress = Pick<Projector, 'available' | 'position' | 'caughtUp' | 'waitFor' | 'rebuildAfterDamage'>;

/** `repairing`: stage 2, the self-repairing read model the projector writes. */
export function servedReadModel(
  repairing: OrderReadModel,
  store: EventStore,
  projector: ProjectorProgress,
  options: ServedReadModelOptions,
): ServedReadModel {
  const progress = readYourWrites(store, projector, options.visibleWithinMs);
  const noting = notingDamage(projector);
  const fromLog = orderFromLog(store, { getById: (id) => noting(() => repairing.getById(id)), repair: repairing.repair }, (id) => {
    const distrust = options.untrustedLog?.();
    if (distrust) throw new UnrepairableDocument(id, new Error(distrust));
  });
  const stages: Stages = { repairing, noting, fromLog, progress };
  const storeOrLog = <T>(id: number, read: () => Promise<T>, fold: (documents: OrderDocuments) => T) => oneOrder(stages, id, read, fold);
  return {
    current: progress.current,
    visible: progress.visible,
    damaged: (error) => projector.rebuildAfterDamage(error),
    checkpoint: () => noting(() => repairing.checkpoint()),
    highestOrderId: () => noting(() => repairing.highestOrderId()),
    repair: (id, events) => noting(() => repairing.repair(id, events)),
    getById: (id) =>
      storeOrLog(
        id,
        () => repairing.getById(id),
        ({ order }) => order,
      ),
    getViewJson: (id) =>
      storeOrLog(
        id,
        () => repairing.getViewJson(id),
        ({ order }) => order && viewJsonOf(order),
      ),
    readyViewJson: (id) => (progress.current() ? repairing.readyViewJson(id) : undefined),
    palletContents: (id) =>
      storeOrLog(
        id,
        () => repairing.palletContents(id),
        ({ pallets }) => pallets,
      ),
    findNewest: (companyGroup, value) => findNewest(stages, companyGroup, value),
    list: (query) => list(stages, query),
  };
}

interface Stages {
  repairing: OrderReadModel;
  noting: ReturnType<typeof notingDamage>;
  fromLog: ReturnType<typeof orderFromLog>;
  progress: ReturnType<typeof readYourWrites>;
}

/** A read of one order: the store's answer while the read model is current and its storage sound, else the log's. */
async function oneOrder<T>(stages: Stages, id: number, read: () => Promise<T>, fold: (documents: OrderDocuments) => T): Promise<T> {
  const { noting, fromLog, progress } = stages;
  if (progress.current()) {
    fromLog.forget();
    try {
      return await noting(read);
    } catch (error) {
      if (!isDamage(error)) throw error;
    }
  }
  return fold(await fromLog.documents(id));
}

/** A lookup by reference or service_ref: a miss of the store is checked against the log (order-from-log.ts). */
async function findNewest({ repairing, noting, fromLog, progress }: Stages, companyGroup: string, value: string) {
  if (progress.current()) {
    try {
      return (await noting(() => repairing.findNewest(companyGroup, value))) ?? (await fromLog.missChecked(companyGroup, value));
    } catch (error) {
      if (!isDamage(error)) throw error;
    }
  }
  return fromLog.newest(companyGroup, value);
}

/** A list waits for a rebuild under way, or for the one the damage it meets starts. */
async function list({ repairing, noting, progress }: Stages, query: OrderListQuery) {
  if (!progress.current()) await progress.caughtUp();
  try {
    return await noting(() => repairing.list(query));
  } catch (error) {
    if (!isDamage(error)) throw error;
    await progress.caughtUp();
    return repairing.list(query);
  }
}

/** Damage of the read model's storage that a call meets starts its rebuild, and is thrown on. */
function notingDamage(projector: ProjectorProgress) {
  return async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (isDamage(error)) projector.rebuildAfterDamage(error as Error);
      throw error;
    }
  };
}

const viewJsonOf = (order: OrderDocument): OrderViewJson => ({ company_group: order.company_group, viewJson: JSON.stringify(order.view) });

/** Stage 4: whether the read model is current, and the waits of commands and lists around its rebuilds. */
function readYourWrites(store: EventStore, projector: ProjectorProgress, visibleWithinMs: number) {
  // The highest position a command was told is visible while the read model was not current.
  let promised = -1n;
  const current = () => projector.available && projector.position >= promised;
  const promise = (position: bigint) => {
    if (position > promised) promised = position;
  };
  return {
    current,
    /**
     * Resolves once the read model is current and holds the log up to its head of now. Waits as long as the
     * rebuild moves on; NotVisibleInTime when it has not moved for the visibility deadline (its storage is
     * down: the truth cannot be listed just now).
     */
    async caughtUp(): Promise<void> {
      const head = (await store.headPosition()) ?? -1n;
      const caughtUp = projector.caughtUp(head > promised ? head : promised);
      for (let seen = projector.position; ; seen = projector.position) {
        try {
          return await visibleWithin(caughtUp, visibleWithinMs, 'the order list');
        } catch (error) {
          if (!(error instanceof NotVisibleInTime) || projector.position === seen) throw error;
        }
      }
    },
    async visible(position: bigint): Promise<void> {
      if (!current()) return promise(position);
      try {
        await visibleWithin(projector.waitFor(position), visibleWithinMs, 'the change');
      } catch (error) {
        // A rebuild began while this waited: reads come from the log now, and they show the change.
        if (!(error instanceof NotVisibleInTime) || current()) throw error;
        promise(position);
      }
    },
  };
}
