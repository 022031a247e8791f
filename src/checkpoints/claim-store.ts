// The claim store: a lease store on a connection of its own (beside the checkpoints), for the leases
// that belong to no other store: planning an order or a consolidation window, and singleton work
// (singleton-lease.ts). Its owner closes it.
import type { LeaseStore } from '../leases/lease-store.js';

export interface ClaimStore extends LeaseStore {
  close(): Promise<void>;
}
