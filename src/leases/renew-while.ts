// Holding leases while work runs, however long it takes: each key is acquired again for another `leaseMs`
// three times a lease, so one slow or failed renewal does not let it run out. A lease is kept short,
// then, and still outlives any work of a live holder; a holder that dies lets go within `leaseMs`.
import type { LeaseStore } from './lease-store.js';

export interface Renewing {
  keys: readonly string[];
  holder: string;
  leaseMs: number;
  /** Told when a renewal finds another holder with the key (`lost`) or fails (`error`). */
  onTrouble?: (key: string, trouble: { lost: true } | { error: unknown }) => void;
  now?: () => number;
}

/** Renews `keys` for `holder` until the function it answers is called. */
export function renewWhileWorking(leases: Pick<LeaseStore, 'acquire'>, renewing: Renewing): () => void {
  const now = renewing.now ?? Date.now;
  const timer = setInterval(
    () => {
      const at = now();
      for (const key of renewing.keys)
        leases.acquire(key, renewing.holder, at, at + renewing.leaseMs).then(
          (kept) => {
            if (!kept) renewing.onTrouble?.(key, { lost: true });
          },
          (error: unknown) => renewing.onTrouble?.(key, { error }),
        );
    },
    Math.max(1, Math.floor(renewing.leaseMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
