// Where a consumer of the log remembers how far it got.
export interface CheckpointStore {
  load(consumer: string): Promise<bigint | undefined>;
  save(consumer: string, position: bigint): Promise<void>;
  close(): Promise<void>;
}
