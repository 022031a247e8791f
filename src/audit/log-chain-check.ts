// When the service verifies the log's hash chain, and from where (docs/auditing.md, "What the service
// checks"). A full walk reads every event, in time that grows with the log (docs/benchmarks.md): too slow for every
// start: start-up verifies from the position the last full or start-up verification reached (a
// checkpoint among the consumers', so that a log that lost its tail is refused by the same rule), and the
// read-model scrubber walks the whole log once per pass in the background.
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import type { HashedLog } from '../eventstore/hashed-log.js';
import { describeVerdict, verifyChain, type ChainHead, type ChainVerdict } from '../eventstore/verify-chain.js';

/** The checkpoint: every event up to this position has been verified. */
export const CHAIN_CHECKPOINT = 'log-hash-chain';

export interface LogChainCheck {
  /** From the checkpoint to the head (the whole log the first time); chains a legacy log first. Undefined on a per-stream chain. */
  atStart(): Promise<ChainVerdict | undefined>;
  /** The whole log; a one-line outcome, and the checkpoint moved to the head verified. */
  fullPass(betweenPages?: () => Promise<void>): Promise<ChainPassOutcome>;
}

export interface ChainPassOutcome {
  ok: boolean;
  /** The outcome with the time of the pass, as /readyz shows it. */
  line: string;
  /** The same without the time: two passes that find the same break find the same finding. */
  finding: string;
}

export function logChainCheck(store: HashedLog, checkpoints: CheckpointStore, logName: string): LogChainCheck {
  const verified = async (verdict: ChainVerdict): Promise<ChainVerdict> => {
    if (verdict.ok && verdict.head) await checkpoints.save(CHAIN_CHECKPOINT, verdict.head.position);
    return verdict;
  };
  return {
    async atStart() {
      // KurrentDB's chains are per stream: they cannot be taken up at a position without every stream's last hash.
      if (store.chainScope !== 'log') return undefined;
      await store.chainLegacyEvents();
      return verified(await verifyChain(store, { from: await checkpointHead(store, await checkpoints.load(CHAIN_CHECKPOINT)) }));
    },
    async fullPass(betweenPages) {
      await store.chainLegacyEvents();
      const verdict = await verified(await verifyChain(store, { betweenPages }));
      const finding = describeVerdict(verdict, logName);
      return { ok: verdict.ok, line: `${new Date().toISOString()}: ${finding}`, finding };
    },
  };
}

/**
 * Hands on a break once per finding: the scrubber verifies the log at every pass (every second on a
 * small log), and the same break found again is no news to an operator. A break found after the chain
 * held again, or a different break, is new.
 */
export function oncePerFinding(report: (outcome: ChainPassOutcome) => void): (outcome: ChainPassOutcome) => void {
  let last: string | undefined;
  return (outcome) => {
    const finding = outcome.ok ? undefined : outcome.finding;
    if (finding !== undefined && finding !== last) report(outcome);
    last = finding;
  };
}

/** The event at the checkpoint as a trusted head; undefined (verify from the start) when it is not there any more. */
async function checkpointHead(store: HashedLog, position: bigint | undefined): Promise<ChainHead | undefined> {
  if (position === undefined) return undefined;
  const [event] = await store.readHashed(position - 1n, 1);
  return event?.position === position && event.hash !== null ? { position, hash: event.hash } : undefined;
}
