// The port of the order read model: the reads behind retrieve, list and the lookups by reference
// (OrderReads), and what the projector, the start-up check and the scrubber write and ask. Each backend
// stores the documents of projections/order-view.ts and projections/pallet-contents.ts with their
// checkpoint, so a crash never applies an event twice nor skips one. Requests read it through
// served-read-model.ts.
import type { RecordedEvent } from '../../eventstore/event-store.js';
import type { OrderDocument } from '../../../projections/order-view.js';
import type { OrderStatus } from '../order-view.js';
import type { PalletContentsDocument } from '../../../projections/pallet-contents.js';

export interface OrderListQuery {
  companyGroup: string;
  /** Case-insensitive substring of service_ref, reference or transport mode name. */
  search?: string;
  /** Only orders in one of these statuses; undefined: every status. */
  statuses?: readonly OrderStatus[];
  offset: number;
  /** undefined: every matching order. */
  limit?: number;
}

/** What retrieve needs: the group to check scope against, and the view as it is sent. */
export interface OrderViewJson extends Pick<OrderDocument, 'company_group'> {
  viewJson: string;
}

/** What requests read. */
export interface OrderReads {
  // Every read below checks each document's checksum (document-checksum.ts) and throws DamagedDocument
  // rather than return a document that does not match it; so does apply, for the documents it folds onto.
  getById(id: number): Promise<OrderDocument | undefined>;
  /** The same order with its view as JSON text, for retrieve to send as it is. */
  getViewJson(id: number): Promise<OrderViewJson | undefined>;
  /**
   * The order's view, synchronously, when this model can vouch for it without waiting: what getViewJson
   * gave lately (its own writes have not changed the order since, and no other writer's is seen; SQLite:
   * the file's data version, read at most once a millisecond), or else a read of the file in this turn's
   * read transaction whose checksum matched. Undefined when it cannot (a damaged document, a failed read:
   * ask getViewJson, which reports or repairs it), when there is no such order, and always where reads
   * must wait (MongoDB).
   */
  readyViewJson(id: number): OrderViewJson | undefined;
  /** Whether the order's plan is ready, and its service-built pallets. */
  palletContents(id: number): Promise<PalletContentsDocument | undefined>;
  /** The newest order of the group whose reference or service_ref is exactly `value`. */
  findNewest(companyGroup: string, value: string): Promise<OrderDocument | undefined>;
  /** Newest first. */
  list(query: OrderListQuery): Promise<{ count: number; results: OrderDocument[] }>;
}

export interface OrderReadModel extends OrderReads {
  /** Log position of the last event applied; undefined before the first. */
  checkpoint(): Promise<bigint | undefined>;
  /**
   * Applies the events after the checkpoint and moves the checkpoint to the last one, atomically. The
   * first batch applied to an empty read model starts at the beginning of the log: its first event's id
   * is stored as the log's identity. Resolves with how many events were past the checkpoint and applied
   * (the read model's writes, counted by the projector: those at or before it are skipped unwritten).
   */
  apply(events: readonly RecordedEvent[]): Promise<number>;
  /** The id of the first event of the log this read model was built from; undefined while empty. */
  logIdentity(): Promise<string | undefined>;
  /** The highest order id it holds, 0 when none: ids it has seen must never be handed out again. */
  highestOrderId(): Promise<number>;
  /**
   * Replaces the order's documents (order and pallet contents) by those `events` fold to, taking only
   * those up to the read model's checkpoint: later ones are apply's. `events` are every event of the
   * order in the log, in log order; none removes its documents. Used to repair a damaged document.
   * False, with nothing written, when a document of the order is ahead of the checkpoint: an apply is
   * writing it (on MongoDB the checkpoint moves after the documents), and folding only up to the
   * checkpoint would take that apply's events back out. Compare again once the checkpoint has moved.
   */
  repair(id: number, events: readonly RecordedEvent[]): Promise<boolean>;
  /** Drops every document, the checkpoint and the identity, to be rebuilt from the log. */
  reset(): Promise<void>;
  close(): Promise<void>;
}
