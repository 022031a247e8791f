// Master data as the rest of the service sees it: the folded `master-data` stream, kept current
// by a subscription (so a second instance on the same log sees changes too), and the command
// that applies a bootstrap document.
import type { EventStore } from '../eventstore/event-store.js';
import { commandHandler } from '../decider/handle-command.js';
import { followLog } from '../eventstore/follow-log.js';
import { PositionWaiters } from '../eventstore/position-waiters.js';
import { visibleWithin } from '../eventstore/visibility-deadline.js';
import type { FieldErrors } from '../validation/field-errors.js';
import { masterDataDecider } from './apply-master-data.js';
import type { MasterDataDocument } from './master-data-document.js';
import {
  evolveMasterData,
  foldMasterData,
  isMasterDataEvent,
  MASTER_DATA_EVENT_TYPES,
  MASTER_DATA_STREAM,
  type MasterData,
  type MasterDataEvent,
} from './master-data.js';

export type ApplyResult = { ok: true; changes: Record<MasterDataEvent['type'], number> } | { ok: false; errors: FieldErrors };

export interface MasterDataService {
  /** The current state; do not mutate. */
  readonly current: MasterData;
  apply(document: MasterDataDocument): Promise<ApplyResult>;
  stop(): Promise<void>;
}

const masterDataCommands = commandHandler(masterDataDecider, (history) => history.filter(isMasterDataEvent));

export async function startMasterDataService(
  store: EventStore,
  log: (message: string, error?: unknown) => void,
  visibleWithinMs = 5000,
): Promise<MasterDataService> {
  const history = await store.readStream(MASTER_DATA_STREAM);
  const state = foldMasterData(history);
  const applied = new PositionWaiters(history.at(-1)?.position ?? -1n);

  // Like every consumer: a lost subscription (a KurrentDB restart) comes back from where the state is.
  const follower = await followLog({
    store,
    name: 'master data',
    types: MASTER_DATA_EVENT_TYPES,
    loadCheckpoint: async () => (applied.position >= 0n ? applied.position : undefined),
    retryDelayMs: 1000,
    async handle(events) {
      for (const event of events) {
        if (event.position <= applied.position) continue;
        if (isMasterDataEvent(event)) evolveMasterData(state, event);
        applied.reached(event.position);
      }
    },
    log,
  });
  async function apply(document: MasterDataDocument): Promise<ApplyResult> {
    // Decided on the stream as stored, not the cache, and appended at the revision read (the shared
    // command loop): two operators applying documents at once cannot interleave half of each.
    const decided = await masterDataCommands.handle(store, MASTER_DATA_STREAM, document);
    if (!decided.ok) return decided;
    // read-your-writes: once apply resolves, `current` holds the change
    if (decided.position !== undefined) await visibleWithin(applied.waitFor(decided.position), visibleWithinMs, 'the master-data document');
    return { ok: true, changes: countByType(decided.events) };
  }

  return {
    current: state,
    apply,
    stop: () => follower.stop(),
  };
}

function countByType(events: readonly MasterDataEvent[]): Record<MasterDataEvent['type'], number> {
  const counts = Object.fromEntries(MASTER_DATA_EVENT_TYPES.map((type) => [type, 0])) as Record<MasterDataEvent['type'], number>;
  for (const event of events) counts[event.type]++;
  return counts;
}
