// An order read from the log instead of the read model: its events, found through its stream, and its
// documents folded from them by the projections that build the read model, so that the answer is the
// one the read model gives (or will give once rebuilt). For a repair, a read while the read model is
// rebuilt or damaged (served-read-model.ts), as_of, the scrubber and replay. The read model is what maps
// an id to its stream: an order it cannot vouch for is found by its OrderSubmitted in the log.
import type { EventStore, RecordedEvent } from '../../eventstore/event-store.js';
import { foldOrderDocuments } from '../../../projections/fold-order-documents.js';
import { orderIdOf, type OrderDocument } from '../../../projections/order-view.js';
import type { PalletContentsDocument } from '../../../projections/pallet-contents.js';
import { lastAllocatedOrderId } from '../order-id-allocator.js';
import { orderStream, SERVICE_REF_PATTERN } from '../order-events.js';
import type { OrderView } from '../order-view.js';
import { isOrderEvent, readOrderStream, submittedIn } from '../read-order-stream.js';
import { DamagedDocument } from './document-checksum.js';
import type { OrderReadModel } from './order-read-model.js';

export type OrderDocuments = { order: OrderDocument | undefined; pallets: PalletContentsDocument | undefined };

// Events read per page while searching the log for an order's OrderSubmitted.
const LOG_PAGE = 1000;
const SERVICE_REF = new RegExp(SERVICE_REF_PATTERN);

/**
 * Every event of the order in the log, in log order. Its stream as the damaged row names it is tried
 * first, and kept only when it holds the order's OrderSubmitted: the name may be what was damaged.
 * Otherwise `findStream` says where the OrderSubmitted is: by default the log is searched for it (rare,
 * and bounded by the log's length). None when the log has no such order (a row whose id was damaged):
 * a repair then removes it.
 */
export async function eventsOfOrder(
  store: EventStore,
  id: number,
  streamHint: string | undefined,
  findStream: (id: number) => Promise<string | undefined> = (id) => streamInLog(store, id),
): Promise<RecordedEvent[]> {
  const ofOrder = async (stream: string) => (await readOrderStream(store, stream)).filter((event) => orderIdOf(event) === id);
  if (streamHint !== undefined) {
    const events = await ofOrder(streamHint);
    if (events.some((event) => event.type === 'OrderSubmitted')) return events;
  }
  const stream = await findStream(id);
  return stream === undefined ? [] : ofOrder(stream);
}

/** The order's view after every event recorded at or before `moment` (to the millisecond); undefined when it did not exist yet. */
export async function orderViewAsOf(store: EventStore, id: number, stream: string, moment: Date): Promise<OrderView | undefined> {
  const events = await eventsOfOrder(store, id, stream);
  // Events are recorded in log order with rising times, so the moment is a cut at a log position.
  const upTo = events.filter((event) => event.recordedAt.getTime() <= moment.getTime()).at(-1)?.position;
  return upTo === undefined ? undefined : foldOrderDocuments(id, events, upTo).order?.view;
}

/** The log's pages after `after`, each as the OrderSubmitted events it holds and its last position. */
async function* submittedPages(store: EventStore, after: bigint | undefined) {
  for (;;) {
    const page = await store.readAll(after, LOG_PAGE);
    const last = page.at(-1);
    if (!last) return;
    after = last.position;
    yield { submitted: page.filter((event) => isOrderEvent(event, 'OrderSubmitted')), last: last.position };
  }
}

async function streamInLog(store: EventStore, id: number): Promise<string | undefined> {
  for await (const { submitted } of submittedPages(store, undefined)) {
    const found = submitted.find((event) => event.data.order_id === id);
    if (found) return found.stream;
  }
  return undefined;
}

/**
 * Which stream holds order N, learnt from the log while the read model is rebuilt. Each stretch of the
 * log is read once, whichever lookup reads it, and every lookup waiting meanwhile is answered by that one
 * read; `forget` drops what was learnt once the read model answers again, so the index takes memory only
 * while a rebuild runs.
 */
export function orderStreamIndex(store: EventStore) {
  let streams = new Map<number, string>();
  let readUpTo: bigint | undefined;
  let reading: Promise<void> | undefined;

  // From where the last read stopped to the head: an order submitted since is found by the next lookup.
  const readOn = (): Promise<void> =>
    (reading ??= (async () => {
      const into = streams;
      for await (const { submitted, last } of submittedPages(store, readUpTo)) {
        if (into !== streams) return; // forgotten meanwhile
        for (const event of submitted) into.set(event.data.order_id, event.stream);
        readUpTo = last;
      }
    })().finally(() => {
      reading = undefined;
    }));

  return {
    /** The stream of the order's OrderSubmitted; undefined when the log holds no such order (yet). */
    async find(id: number): Promise<string | undefined> {
      const known = streams.get(id);
      if (known !== undefined) return known;
      // An id never handed out is not looked for: that would read the whole log for any number a client sends.
      if (id > (await lastAllocatedOrderId(store))) return undefined;
      // A read under way may have started before this order was appended: it is read on once more after it.
      if (reading) await reading;
      await readOn();
      return streams.get(id);
    },
    forget(): void {
      if (streams.size === 0 && readUpTo === undefined) return;
      streams = new Map();
      readUpTo = undefined;
    },
  };
}

/**
 * The read model's reads of one order answered from the log. `readModel` names the order's stream when
 * it can (the rebuilt part has the orders it has reached); `trusted` throws when the log is not to be
 * served just now (its hash chain broken).
 */
export function orderFromLog(store: EventStore, readModel: Pick<OrderReadModel, 'getById' | 'repair'>, trusted: (id: number) => void) {
  const streams = orderStreamIndex(store);
  const folded = (id: number, events: readonly RecordedEvent[]): OrderDocuments =>
    foldOrderDocuments(id, events, events.at(-1)?.position ?? -1n);
  /** The order's stream named by a reference, and its order's id; undefined when no order has it. */
  const byReference = async (companyGroup: string, value: string) => {
    const events = await readOrderStream(store, orderStream(companyGroup, value));
    const id = submittedIn(events)?.order_id;
    if (id !== undefined) trusted(id);
    return id === undefined ? undefined : { id, events };
  };

  const documents = async (id: number): Promise<OrderDocuments> => {
    trusted(id);
    let hint: string | undefined;
    try {
      hint = (await readModel.getById(id))?.stream;
    } catch (error) {
      if (error instanceof DamagedDocument) hint = error.streamHint;
    }
    return folded(id, await eventsOfOrder(store, id, hint, (id) => streams.find(id)));
  };

  return {
    documents,
    /** The read model answers again: what was learnt of the log's streams is dropped. */
    forget: () => streams.forget(),
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
        const order = await readModel.getById(Number(value.slice(3)));
        if (order && order.company_group === companyGroup && order.view.service_ref === value) {
          await readModel.repair(order.view.id, await eventsOfOrder(store, order.view.id, order.stream, async () => undefined));
          return order;
        }
      }
      const found = await byReference(companyGroup, value);
      if (!found) return undefined;
      const ofOrder = found.events.filter((event) => event.data.order_id === found.id);
      await readModel.repair(found.id, ofOrder);
      return folded(found.id, ofOrder).order;
    },
  };
}
