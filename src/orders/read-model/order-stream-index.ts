// Which stream holds order N, read from the log, for the reads answered from it while the read model is
// rebuilt: the read model is what maps an id to its stream, and an order it has not reached yet is found
// only by its OrderSubmitted in the log. Each stretch of the log is read once, whichever lookup reads
// it, and every lookup waiting meanwhile is answered by that one read; `forget` drops what was learnt
// once the read model can answer again, so the index takes memory only while a rebuild runs.
import type { EventStore } from '../../eventstore/event-store.js';
import { isOrderEvent } from '../read-order-stream.js';
import { lastAllocatedOrderId } from '../order-id-allocator.js';

export interface OrderStreamIndex {
  /** The stream of the order's OrderSubmitted; undefined when the log holds no such order (yet). */
  find(id: number): Promise<string | undefined>;
  forget(): void;
}

const LOG_PAGE = 1000;

export function orderStreamIndex(store: EventStore): OrderStreamIndex {
  let streams = new Map<number, string>();
  let readUpTo: bigint | undefined;
  let reading: Promise<void> | undefined;

  // From where the last read stopped to the head: an order submitted since is found by the next lookup.
  const readOn = (): Promise<void> =>
    (reading ??= (async () => {
      const into = streams;
      for (;;) {
        const page = await store.readAll(readUpTo, LOG_PAGE);
        if (into !== streams) return; // forgotten meanwhile
        const last = page.at(-1);
        if (!last) return;
        for (const event of page) if (isOrderEvent(event, 'OrderSubmitted')) into.set(event.data.order_id, event.stream);
        readUpTo = last.position;
      }
    })().finally(() => {
      reading = undefined;
    }));

  return {
    async find(id) {
      const known = streams.get(id);
      if (known !== undefined) return known;
      // An id never handed out is not looked for: that would read the whole log for any number a client sends.
      if (id > (await lastAllocatedOrderId(store))) return undefined;
      // A read under way may have started before this order was appended: it is read on once more after it.
      if (reading) await reading;
      await readOn();
      return streams.get(id);
    },
    forget() {
      if (streams.size === 0 && readUpTo === undefined) return;
      streams = new Map();
      readUpTo = undefined;
    },
  };
}
