// Leases on named work that several replicas could each do: planning an order or a consolidation
// window, sending a due webhook delivery or an event's e-mail or Kafka message, appending the outcome
// journal to the log, the singleton work of one replica for all (the projector, the notification
// consumers, the scrubber). A replica does the work only while it holds the
// key's lease, renews it while the work runs, and lets it go when done; a holder that dies lets go when
// its lease runs out. Leases save work and keep two replicas from doing one thing at the same moment;
// what keeps a result single is the stream's decider or the record written with the work.
// One adapter per store: sqlite-leases.ts (a table in a given database), mongodb-leases.ts (a collection
// and its takeover markers). The contract is test/leases/lease-store-contract.ts.
export interface LeaseStore {
  /**
   * Acquires `key` for `holder` until `leaseUntil` (epoch ms): true when it holds it (no one did; it did
   * already, and this renews it; or another holder's lease ran out by `now`), false while another
   * holder's lease runs. Of holders racing for one free or expired key, exactly one gets it.
   */
  acquire(key: string, holder: string, now: number, leaseUntil: number): Promise<boolean>;
  /** Lets go of `key` if `holder` has it: the next acquire succeeds at once. Another holder's lease stands. */
  release(key: string, holder: string): Promise<void>;
  /** Lets go of every key `holder` has: a replica that stops cleanly leaves its work to the others at once. */
  releaseAll(holder: string): Promise<void>;
  /** Who holds `key` at `now`; undefined when no lease on it runs. */
  holderOf(key: string, now: number): Promise<string | undefined>;
}
