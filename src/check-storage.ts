// The start-up check of derived data against the log it was derived from. The log is the truth; what
// was derived from it (the read model, the consumers' checkpoints) must belong to it and must not be
// ahead of it. A read model that fails is rebuilt from the log. Anything that shows the log itself is
// missing or has lost events stops start-up with a one-line reason: serving on it would hand out ids
// again, announce orders twice, or show orders the log cannot explain.
import type { CheckpointStore } from './checkpoints/checkpoint-store.js';
import type { EventStore } from './eventstore/event-store.js';
import { describeVerdict, type ChainVerdict } from './eventstore/verify-chain.js';
import { lastAllocatedOrderId } from './orders/order-id-allocator.js';
import type { OrderReadModel } from './orders/read-model/order-read-model.js';

export interface StorageFacts {
  log: { name: string; head: bigint | undefined; firstEventId: string | undefined; lastOrderId: number };
  readModel: { name: string; checkpoint: bigint | undefined; logId: string | undefined; highestOrderId: number };
  /** Stores of consumer checkpoints; `logId` undefined where the store keeps none. */
  consumers: { name: string; logId: string | undefined; checkpoints: ReadonlyMap<string, bigint> }[];
}

export type StorageDecision = { ok: true; rebuildReadModel: string | undefined } | { ok: false; reason: string };

/** Pure: what the facts allow. */
export function decideStorage({ log, readModel, consumers }: StorageFacts): StorageDecision {
  const restore = `restore ${log.name} from a backup that has them; the service does not start on it`;
  if (log.head === undefined) {
    const derived = readModel.checkpoint !== undefined ? readModel.name : consumers.find((store) => store.checkpoints.size > 0)?.name;
    if (derived) return { ok: false, reason: `${log.name} is missing or empty, but ${derived} was derived from events: ${restore}` };
    return { ok: true, rebuildReadModel: undefined };
  }
  // Ids are never handed out twice: a read model that has seen a later id than the log proves lost events.
  if (readModel.highestOrderId > log.lastOrderId) {
    return {
      ok: false,
      reason: `${readModel.name} holds order ${readModel.highestOrderId} but the last order id in ${log.name} is ${log.lastOrderId}: the log has lost events; ${restore}`,
    };
  }
  for (const store of consumers) {
    if (store.logId !== undefined && store.logId !== log.firstEventId) {
      return {
        ok: false,
        reason: `${store.name} belongs to another event log than ${log.name}: put back the matching log, or remove ${store.name} to start its consumers from the beginning of this one`,
      };
    }
    for (const [consumer, position] of store.checkpoints) {
      if (position > log.head)
        return {
          ok: false,
          reason: `${store.name}: consumer "${consumer}" is at log position ${position}, past the end of ${log.name} (${log.head}): the log has lost events; ${restore}`,
        };
    }
  }
  if (readModel.checkpoint === undefined) return { ok: true, rebuildReadModel: undefined };
  if (readModel.logId !== undefined && readModel.logId !== log.firstEventId)
    return { ok: true, rebuildReadModel: `${readModel.name} was built from another event log` };
  if (readModel.checkpoint > log.head)
    return {
      ok: true,
      rebuildReadModel: `${readModel.name} is at log position ${readModel.checkpoint}, past the end of ${log.name} (${log.head})`,
    };
  return { ok: true, rebuildReadModel: undefined };
}

export class StorageRefused extends Error {}

export interface StoragePorts {
  store: EventStore;
  logName: string;
  orders: OrderReadModel;
  readModelName: string;
  checkpoints: CheckpointStore;
  checkpointsName: string;
  /** Checkpoints kept elsewhere (the notification consumers'), with the identity of their log. */
  otherConsumers: {
    name: string;
    load(): Promise<ReadonlyMap<string, bigint>>;
    logIdentity(): Promise<string | undefined>;
    bindToLog(logId: string): Promise<void>;
  }[];
  log: (message: string) => void;
  /** The log's hash chain from the last verified position (audit/log-chain-check.ts); undefined where it is verified elsewhere. */
  verifyLogChain?: () => Promise<ChainVerdict | undefined>;
}

/**
 * Gathers the facts (each a lookup of one row or one end of an index: the cost does not grow with the
 * log), then rebuilds the read model or throws StorageRefused as decided, and binds the checkpoints to
 * this log.
 */
export async function checkStorageAtStart(ports: StoragePorts): Promise<void> {
  const { store, orders, checkpoints } = ports;
  // What was derived first, the log after it: other replicas running on the same stores move both
  // meanwhile, and a checkpoint read before the log's head can never be past it, the other way round it can.
  const readModel = {
    name: ports.readModelName,
    checkpoint: await orders.checkpoint(),
    logId: await orders.logIdentity(),
    highestOrderId: await orders.highestOrderId(),
  };
  const consumers = [
    { name: ports.checkpointsName, logId: await checkpoints.logIdentity(), checkpoints: await checkpoints.all() },
    ...(await Promise.all(
      ports.otherConsumers.map(async ({ name, load, logIdentity }) => ({ name, logId: await logIdentity(), checkpoints: await load() })),
    )),
  ];
  const [head, first, lastOrderId] = await Promise.all([store.headPosition(), store.readAll(undefined, 1), lastAllocatedOrderId(store)]);
  const facts: StorageFacts = { log: { name: ports.logName, head, firstEventId: first[0]?.id, lastOrderId }, readModel, consumers };
  const decision = decideStorage(facts);
  if (!decision.ok) throw new StorageRefused(decision.reason);
  // After the facts: a log that lost its tail is refused for that first, with its own remedy.
  const chain = await ports.verifyLogChain?.();
  if (chain && !chain.ok)
    throw new StorageRefused(
      `${describeVerdict(chain, ports.logName)}; npm run verify-history says the same; restore ${ports.logName} from a backup made before that change (docs/auditing.md)`,
    );
  if (decision.rebuildReadModel) {
    ports.log(`${decision.rebuildReadModel}: rebuilding it from the log`);
    await orders.reset();
  }
  const firstEventId = facts.log.firstEventId;
  if (firstEventId !== undefined) {
    if (facts.consumers[0]!.logId === undefined) await checkpoints.bindToLog(firstEventId);
    for (const [i, other] of ports.otherConsumers.entries())
      if (facts.consumers[i + 1]!.logId === undefined) await other.bindToLog(firstEventId);
  }
}
