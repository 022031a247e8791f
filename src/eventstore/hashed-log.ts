// The log as it was hashed (hash-chain.ts): the port of the hash chain's checks (verify-chain.ts, the
// start-up check and the scrubber, signed digests, the history export, verify-history). Every backend
// implements it beside the event store port (event-store.ts), and one contract suite runs against each.
import type { ChainScope, HashedEvent } from './hash-chain.js';

export interface HashedLog {
  /** How the hash chain links events: to the previous event of the whole log, or of the stream. */
  readonly chainScope: ChainScope;
  /** Events of the whole log with position > after as they were hashed, in log order, at most `limit`. */
  readHashed(after?: bigint, limit?: number): Promise<HashedEvent[]>;
  /** The last event of the log as it was hashed; undefined when the log is empty. */
  readHeadHashed(): Promise<HashedEvent | undefined>;
  /** A stream's events as they were hashed, in revision order, each with the hash it is chained to. */
  readStreamHashed(stream: string): Promise<(HashedEvent & { previousHash: string })[]>;
  /** Chains events written before the chain existed, when the store can (SQLite: from the first event); returns how many. */
  chainLegacyEvents(): Promise<number>;
}
