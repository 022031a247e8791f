// Walks the log and checks the hash chain (hash-chain.ts): every event's hash must be SHA-256 over its
// content chained to its previous event's hash. The first event that fails is named with what was done
// to the log, told apart by what the hashes around it still link to:
// - reordered: it chains onto another event near it (or is the log's first), not onto the one before it;
// - inserted: the event after it chains onto the one before it, as if it were not there;
// - removed: a position (or a revision of its stream) is missing before it;
// - changed: none of those; its content (or its hash) no longer matches.
// Removing the LAST events leaves a shorter chain that verifies: only a digest published earlier (a head
// hash at a later position) shows that (docs/auditing.md).
import type { HashedLog } from './hashed-log.js';
import { GENESIS, eventHash, type HashedEvent } from './hash-chain.js';

export interface ChainHead {
  position: bigint;
  hash: string;
}

export type BreakKind = 'changed' | 'removed' | 'inserted' | 'reordered';

export type ChainVerdict =
  | { ok: true; head: ChainHead | undefined; events: number }
  | { ok: false; kind: BreakKind; position: bigint; stream: string; revision: bigint; reason: string; events: number };

export interface VerifyOptions {
  /** An event already verified (a stored checkpoint): the walk starts after it, chained onto its hash. Log scope only. */
  from?: ChainHead;
  /** Events read at once. Default 2000. */
  pageSize?: number;
  /** Awaited between pages, so that a background walk lets requests go first. */
  betweenPages?: () => Promise<void>;
}

/** Events either side of a break in which an event's real predecessor is looked for. */
const WINDOW = 64;

export async function verifyChain(store: HashedLog, options: VerifyOptions = {}): Promise<ChainVerdict> {
  const pageSize = options.pageSize ?? 2000;
  const byStream = store.chainScope === 'stream';
  if (byStream && options.from) throw new RangeError('a per-stream chain is verified from the beginning of the log');
  // Per stream: its last hash (stream scope) and last revision (every scope: a revision skipped is an event removed).
  const streams = new Map<string, { hash: string | null; revision: bigint }>();
  let previous: ChainHead | undefined = options.from;
  let behind: HashedEvent[] = [];
  let events = 0;
  for (let after = options.from?.position; ; ) {
    const page = await store.readHashed(after, pageSize);
    if (page.length === 0) break;
    for (const [i, event] of page.entries()) {
      const stream = streams.get(event.stream);
      const chainedTo = byStream ? (stream?.hash ?? GENESIS) : (previous?.hash ?? GENESIS);
      // On KurrentDB a stream written before the chain existed starts its chain at its first hashed event.
      const legacy = byStream && event.hash === null && (stream === undefined || stream.hash === null);
      if (!legacy && event.hash !== eventHash(chainedTo, event)) {
        const ahead = [...page.slice(i + 1, i + 1 + WINDOW)];
        if (ahead.length < WINDOW) ahead.push(...(await store.readHashed(event.position, WINDOW)).slice(ahead.length));
        const found = classify({ event, chainedTo, previous, stream, behind, ahead, byStream });
        return { ok: false, ...found, position: event.position, stream: event.stream, revision: event.revision, events };
      }
      streams.set(event.stream, { hash: event.hash ?? stream?.hash ?? null, revision: event.revision });
      if (event.hash !== null) previous = { position: event.position, hash: event.hash };
      events++;
    }
    behind = [...behind, ...page].slice(-WINDOW);
    after = page[page.length - 1]!.position;
    await options.betweenPages?.();
  }
  return { ok: true, head: previous, events };
}

interface Break {
  event: HashedEvent;
  chainedTo: string;
  previous: ChainHead | undefined;
  stream: { revision: bigint } | undefined;
  behind: readonly HashedEvent[];
  ahead: readonly HashedEvent[];
  byStream: boolean;
}

function classify({ event, chainedTo, previous, stream, behind, ahead, byStream }: Break): { kind: BreakKind; reason: string } {
  const at = `the event at position ${event.position} (${event.type}, ${event.stream} revision ${event.revision})`;
  if (event.hash !== null) {
    if (previous && eventHash(GENESIS, event) === event.hash)
      return { kind: 'reordered', reason: `${at} was the first event of its chain, and is now after position ${previous.position}` };
    const realPrevious = [...behind, ...ahead].find(
      (other) =>
        other.hash !== null &&
        other.position !== previous?.position &&
        (!byStream || other.stream === event.stream) &&
        eventHash(other.hash, event) === event.hash,
    );
    if (realPrevious)
      return {
        kind: 'reordered',
        reason: `${at} was chained after the event at position ${realPrevious.position}, not after ${previous ? `position ${previous.position}` : 'the start of the log'}: events were moved`,
      };
  }
  const next = ahead.find((other) => !byStream || other.stream === event.stream);
  if (next?.hash != null && eventHash(chainedTo, next) === next.hash)
    return {
      kind: 'inserted',
      reason: `${at} was inserted: the event after it (position ${next.position}) chains onto ${previous ? `position ${previous.position}` : 'the start of the log'}`,
    };
  const expectedPosition = (previous?.position ?? 0n) + 1n;
  if (!byStream && event.position > expectedPosition)
    return {
      kind: 'removed',
      reason: `position${event.position - expectedPosition > 1n ? `s ${expectedPosition} to ${event.position - 1n} are` : ` ${expectedPosition} is`} missing before ${at}: events were removed`,
    };
  const expectedRevision = stream ? stream.revision + 1n : 0n;
  if (event.revision > expectedRevision)
    return { kind: 'removed', reason: `revision ${expectedRevision} of ${event.stream} is missing before ${at}: an event was removed` };
  return {
    kind: 'changed',
    reason: event.hash === null ? `${at} has no hash: it was changed` : `${at} does not match its hash: its content was changed`,
  };
}

/** The verdict as one line: what verify-history prints and the start-up check refuses with. */
export function describeVerdict(verdict: ChainVerdict, logName: string): string {
  if (verdict.ok)
    return `${logName}: the hash chain holds over ${verdict.events} events; head ${verdict.head ? `${verdict.head.hash} at position ${verdict.head.position}` : 'none (empty log)'}`;
  return `${logName}: the hash chain breaks at position ${verdict.position} (${verdict.kind}): ${verdict.reason}`;
}
