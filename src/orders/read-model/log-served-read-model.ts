// Reads answered from the log when the read model cannot answer them: while it is rebuilt (not current),
// and when a read finds its storage damaged (a page SQLite reports malformed only when a query touches
// it), which starts that rebuild. An order is folded from its events by the same projections that build
// the read model, so the answer is the one the rebuilt read model will give. A list instead waits for
// the rebuilt read model: folding every order of a group from the log per request would read the whole
// log for each. Damage met by the projector (apply, its checkpoint) starts the same rebuild.
import type { EventStore } from '../../eventstore/event-store.js';
import { isDamage } from '../../storage/damaged-storage.js';
import { orderStream, SERVICE_REF_PATTERN } from '../order-events.js';
import { readOrderStream, submittedIn } from '../read-order-stream.js';
import { DamagedDocument } from './document-checksum.js';
import { foldOrderDocuments } from '../../../projections/fold-order-documents.js';
import type { OrderReadModel } from './order-read-model.js';
import { orderStreamIndex } from './order-stream-index.js';
import type { OrderDocument } from '../../../projections/order-view.js';
import type { PalletContentsDocument } from '../../../projections/pallet-contents.js';
import type { ReadModelState } from './read-model-state.js';
import { eventsOfOrder, UnrepairableDocument } from './self-repairing-read-model.js';

type Documents = { order: OrderDocument | undefined; pallets: PalletContentsDocument | undefined };

const SERVICE_REF = new RegExp(SERVICE_REF_PATTERN);

/**
 * `inner`: the self-repairing read model (a damaged document is repaired there, order by order).
 * `untrustedLog`: why the log cannot be trusted just now (its hash chain broken); the read then fails as
 * UnrepairableDocument (503) rather than serve a changed event.
 */
export function logServedReadModel(
  inner: OrderReadModel,
  store: EventStore,
  state: ReadModelState,
  untrustedLog: () => string | undefined = () => undefined,
): OrderReadModel {
  /** Damage of the read model's storage starts its rebuild, and is thrown on. */
  const noting = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (isDamage(error)) state.damaged(error as Error);
      throw error;
    }
  };
  const streams = orderStreamIndex(store);
  const fromLog = logReads(inner, store, noting, untrustedLog, streams);

  /** A read of one order: the read model's answer when it can give it, else the log's. */
  const oneOrder = async <T>(id: number, read: () => Promise<T>, answer: (documents: Documents) => T): Promise<T> => {
    if (state.current()) {
      streams.forget();
      try {
        return await noting(read);
      } catch (error) {
        if (!isDamage(error)) throw error;
      }
    }
    return answer(await fromLog.documents(id));
  };

  return {
    checkpoint: () => noting(() => inner.checkpoint()),
    apply: (events) => noting(() => inner.apply(events)),
    logIdentity: () => noting(() => inner.logIdentity()),
    highestOrderId: () => noting(() => inner.highestOrderId()),
    repair: (id, events) => noting(() => inner.repair(id, events)),
    reset: () => inner.reset(),
    getById: (id) =>
      oneOrder(
        id,
        () => inner.getById(id),
        ({ order }) => order,
      ),
    getViewJson: (id) =>
      oneOrder(
        id,
        () => inner.getViewJson(id),
        ({ order }) => (order ? { company_group: order.company_group, viewJson: JSON.stringify(order.view) } : undefined),
      ),
    readyViewJson: (id) => (state.current() ? inner.readyViewJson(id) : undefined),
    palletContents: (id) =>
      oneOrder(
        id,
        () => inner.palletContents(id),
        ({ pallets }) => pallets,
      ),
    async findNewest(companyGroup, value) {
      if (state.current()) {
        try {
          return (await noting(() => inner.findNewest(companyGroup, value))) ?? (await fromLog.missChecked(companyGroup, value));
        } catch (error) {
          if (!isDamage(error)) throw error;
        }
      }
      return fromLog.newest(companyGroup, value);
    },
    async list(query) {
      if (!state.current()) await state.caughtUp();
      try {
        return await noting(() => inner.list(query));
      } catch (error) {
        if (!isDamage(error)) throw error;
        await state.caughtUp();
        return inner.list(query);
      }
    },
    close: () => inner.close(),
  };
}

/** The read model's reads answered from the log, folded by the projections that build the read model. */
function logReads(
  inner: OrderReadModel,
  store: EventStore,
  noting: <T>(call: () => Promise<T>) => Promise<T>,
  untrustedLog: () => string | undefined,
  streams: ReturnType<typeof orderStreamIndex>,
) {
  const folded = (id: number, events: Parameters<typeof foldOrderDocuments>[1]): Documents =>
    foldOrderDocuments(id, events, events.at(-1)?.position ?? -1n);
  const trusted = (id: number): void => {
    const distrust = untrustedLog();
    if (distrust) throw new UnrepairableDocument(id, new Error(distrust));
  };
  /** The order's stream named by a reference, and its order's id; undefined when no order has it. */
  const byReference = async (companyGroup: string, value: string) => {
    const events = await readOrderStream(store, orderStream(companyGroup, value));
    const id = submittedIn(events)?.order_id;
    if (id !== undefined) trusted(id);
    return id === undefined ? undefined : { id, events };
  };

  const documents = async (id: number): Promise<Documents> => {
    trusted(id);
    // The stream as the read model names it, when it can: the rebuilt part has the orders it has reached.
    let hint: string | undefined;
    try {
      hint = (await noting(() => inner.getById(id)))?.stream;
    } catch (error) {
      if (error instanceof DamagedDocument) hint = error.streamHint;
    }
    return folded(id, await eventsOfOrder(store, id, hint, (id) => streams.find(id)));
  };

  return {
    documents,
    // A service_ref names its order's id; anything else is a reference, which names the order's stream.
    async newest(companyGroup: string, value: string): Promise<OrderDocument | undefined> {
      if (SERVICE_REF.test(value)) {
        const { order } = await documents(Number(value.slice(3)));
        if (order && order.company_group === companyGroup && order.view.service_ref === value) return order;
      }
      const found = await byReference(companyGroup, value);
      return found && folded(found.id, found.events).order;
    },
    // A miss of the read model's lookup is checked against the log: its columns (reference, service_ref) are
    // outside the document's checksum, and a flipped byte there would hide an order. One stream read of the
    // log, or one read of the order's row; an order found so is stored again, its columns with it.
    async missChecked(companyGroup: string, value: string): Promise<OrderDocument | undefined> {
      if (SERVICE_REF.test(value)) {
        const order = await noting(() => inner.getById(Number(value.slice(3))));
        if (order && order.company_group === companyGroup && order.view.service_ref === value) {
          await inner.repair(order.view.id, await eventsOfOrder(store, order.view.id, order.stream, async () => undefined));
          return order;
        }
      }
      const found = await byReference(companyGroup, value);
      if (!found) return undefined;
      const ofOrder = found.events.filter((event) => event.data.order_id === found.id);
      await inner.repair(found.id, ofOrder);
      return folded(found.id, ofOrder).order;
    },
  };
}
