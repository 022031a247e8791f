// Claims on work that several replicas of the log's consumers could each do (planning an order,
// planning a consolidation window): a replica does it only while it holds the key's lease, renews the
// lease while the work runs, and lets it go when done. A holder that dies lets go when its lease runs
// out. Claims save work; what keeps the result single is the stream's decider, whatever the claims say.
export interface ClaimStore {
  /**
   * Takes `key` for `holder` until `leaseUntil` (epoch ms): true when it holds it (no one did, it did
   * already: a renewal, or another holder's lease ran out), false while another holder's lease runs.
   */
  claim(key: string, holder: string, now: number, leaseUntil: number): Promise<boolean>;
  /** Lets go of `key` if `holder` has it: the next claim of it succeeds at once. */
  release(key: string, holder: string): Promise<void>;
  /** Lets go of every key `holder` has: a replica that stops cleanly leaves its work to the others at once. */
  releaseAll(holder: string): Promise<void>;
  close(): Promise<void>;
}
