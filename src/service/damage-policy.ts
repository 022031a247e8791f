// What the service does about damage, in one place: which damage is rebuilt and which is refused,
// how each repair is reported, and whether the log may be trusted to repair from.
// - The read model is derived from the log: damage to its storage replaces or rebuilds it from the
//   log, and a document that differs from the log is folded again from it. Each is a log line and a
//   count in orders_read_model_repairs.
// - The log, the checkpoints and the delivery store are not derived from anything: damage there
//   answers 503 (or refuses start-up) until an operator restores them.
// - A log whose hash chain the scrubber found broken is not copied into the read model: repairs fail
//   as unrepairable until the chain holds again. The same break found again is reported once.
import type { ChainPassOutcome } from '../audit/log-chain-check.js';
import { oncePerFinding } from '../audit/log-chain-check.js';
import type { Logger } from '../observability/logger.js';
import { WHOLE_READ_MODEL, type Metrics } from '../observability/metrics.js';
import type { DamagedDocument } from '../orders/read-model/document-checksum.js';
import { DamagedStorage } from '../storage/damaged-storage.js';

export class DamagePolicy {
  // The last verification of the log's hash chain, when it broke.
  #logChainBreak: string | undefined;
  readonly #reportChainBreak: (outcome: ChainPassOutcome) => void;

  constructor(
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    /** The read model's storage as DamagedStorage names it: the one store that can be rebuilt. */
    private readonly readModelName: string,
  ) {
    this.#reportChainBreak = oncePerFinding((outcome) => {
      logger.error(outcome.line);
      metrics.logChainBreaks.inc();
    });
  }

  /** Why the log cannot be trusted to repair from just now, else undefined. */
  readonly untrustedLog = (): string | undefined => this.#logChainBreak;

  /** The read model's storage found damaged at start: replaced by an empty one. */
  readonly replaceDamaged = (error: Error): void => {
    this.logger.error({ err: error }, `${error.message}: replacing it, to be rebuilt from the log`);
    this.metrics.readModelRepairs.inc({ document: WHOLE_READ_MODEL });
  };

  /** A read found the read model's storage damaged: it is rebuilt, reads of one order answered from the log meanwhile. */
  readonly rebuildingAfterDamage = (error: Error): void => {
    this.logger.error(
      { err: error },
      `${error.message}: rebuilding the read model from the log; reads of one order are answered from the log meanwhile`,
    );
    this.metrics.readModelRepairs.inc({ document: WHOLE_READ_MODEL });
  };

  /** A document that failed its checksum as it was read, folded again from the log. */
  readonly repairedOnRead = (damage: DamagedDocument): void => {
    this.logger.warn({ order_id: damage.orderId, document: damage.document }, `${damage.message}: repaired from the log`);
    this.metrics.readModelRepairs.inc({ document: damage.document });
  };

  /** An order whose documents the scrubber found differing from the log, now repaired. */
  readonly repairedByScrubber = (orderId: number, documents: readonly string[]): void => {
    this.logger.warn(
      { order_id: orderId },
      `order ${orderId}: its ${documents.join(' and ')} in the read model differed from the log: repaired by the scrubber`,
    );
    for (const document of documents) this.metrics.readModelRepairs.inc({ document });
  };

  /** The outcome of a full verification of the log's hash chain. */
  readonly logChainVerified = (outcome: ChainPassOutcome): void => {
    this.#logChainBreak = outcome.ok ? undefined : outcome.line;
    this.#reportChainBreak(outcome);
  };

  /** Whether damage a request ran into is the read model's, which is rebuilt; any other answers 503 until restored. */
  rebuildable(error: unknown): error is DamagedStorage {
    return error instanceof DamagedStorage && error.file === this.readModelName;
  }
}
