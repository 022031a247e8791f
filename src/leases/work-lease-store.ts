// The work lease store: a lease store on a connection of its own (beside the checkpoints, or beside a
// PostgreSQL log), for the leases that belong to no other store: planning an order or a consolidation
// window (planning-leases.ts), and singleton work (singleton-lease.ts). Its owner closes it. Its table
// and collection keep their first name, `work_claims`: renaming them would strand a running fleet's leases.
import type { LeaseStore } from './lease-store.js';

export interface WorkLeaseStore extends LeaseStore {
  close(): Promise<void>;
}
