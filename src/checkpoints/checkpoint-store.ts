// Where a consumer of the log remembers how far it got.
export interface CheckpointStore {
  load(consumer: string): Promise<bigint | undefined>;
  save(consumer: string, position: bigint): Promise<void>;
  /** Every consumer's checkpoint: what the start-up check holds against the log's head. */
  all(): Promise<Map<string, bigint>>;
  /** The id of the first event of the log these checkpoints are positions in; undefined until bound. */
  logIdentity(): Promise<string | undefined>;
  /** Records which log the checkpoints belong to (the start-up check does, once the log has an event). */
  bindToLog(logId: string): Promise<void>;
  close(): Promise<void>;
}
