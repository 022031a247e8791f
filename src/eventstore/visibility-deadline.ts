// Reads that wait for a projection (submit's read-your-writes, a download's record, master data after
// an apply) wait at most this long: a stalled read model (a database down, a rebuild) answers 503
// instead of holding the request, and its socket, for ever.
export class NotVisibleInTime extends Error {
  constructor(
    what: string,
    readonly ms: number,
    /** Shown to the client: what was stored even though it cannot be read back yet. */
    readonly stored: Record<string, unknown> = {},
  ) {
    super(`${what} is stored but not yet visible after ${ms} ms`);
    this.name = 'NotVisibleInTime';
  }
}

export function visibleWithin(wait: Promise<void>, ms: number, what: string, stored?: Record<string, unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    wait,
    new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new NotVisibleInTime(what, ms, stored)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
