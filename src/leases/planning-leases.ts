// How a replica takes its share of the planning: before it plans an order (or a consolidation window)
// it acquires the key's lease in the shared work lease store, renews it while the planner runs, and
// lets go when the result is stored. Another replica that finds the key held leaves it and looks again
// later: by then the result is there, or the holder died and its lease ran out, and the order is taken
// over. (The log lines still say "claim", as operators' searches do.)
import type { WorkLeaseStore } from './work-lease-store.js';
import type { Log } from '../eventstore/follow-log.js';
import { renewWhileWorking } from './renew-while.js';

export interface PlanningLeases {
  /** How long a lease lasts unless renewed; a replica that finds a key held looks again after half of it. */
  readonly leaseMs: number;
  /** Runs `work` while holding `key`; `{ held: false }`, without running it, while another replica holds it. */
  whileHeld<T>(key: string, work: () => Promise<T>): Promise<{ held: true; value: T } | { held: false }>;
  /** Keys this replica holds now (the `orders_planning_claims_held` gauge). */
  held(): number;
  /** Lets go of every lease at once (a clean stop). */
  releaseAll(): Promise<void>;
}

export function planningLeases(
  store: WorkLeaseStore,
  options: { holder: string; leaseMs: number; log: Log; now?: () => number },
): PlanningLeases {
  const { holder, leaseMs, log } = options;
  const now = options.now ?? Date.now;
  const holding = new Set<string>();
  return {
    leaseMs,
    async whileHeld(key, work) {
      if (!(await store.acquire(key, holder, now(), now() + leaseMs))) return { held: false };
      holding.add(key);
      const stopRenewing = renewWhileWorking(store, {
        keys: [key],
        holder,
        leaseMs,
        now,
        onTrouble: (_, trouble) =>
          'lost' in trouble
            ? log(
                `planning: the claim on ${key} ran out and another replica took it; the order's decider keeps one result`,
                undefined,
                'warn',
              )
            : log(`planning: renewing the claim on ${key} failed`, trouble.error, 'warn'),
      });
      try {
        return { held: true, value: await work() };
      } finally {
        stopRenewing();
        holding.delete(key);
        // a release that fails costs the others only the rest of the lease
        await store.release(key, holder).catch((error: unknown) => log(`planning: releasing the claim on ${key} failed`, error, 'warn'));
      }
    },
    held: () => holding.size,
    async releaseAll() {
      await store.releaseAll(holder);
    },
  };
}
