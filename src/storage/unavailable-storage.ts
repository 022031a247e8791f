// A storage server that does not answer (a MongoDB read model whose server is down or unreachable):
// the request answers 503 naming it, and retries are worth it, unlike damage (damaged-storage.ts).
export class StorageUnavailable extends Error {
  constructor(
    /** The store, as an operator would look for it ("the MongoDB order read model"). */
    readonly store: string,
    detail: string,
  ) {
    super(`${store} is not reachable (${detail})`);
    this.name = 'StorageUnavailable';
  }
}

/**
 * Wraps every method of `target` so that an error `isUnreachable` says is the server's absence becomes
 * StorageUnavailable naming `store`; anything else passes as it is. A method that answers without a
 * promise (one that does no I/O) still does.
 */
export function guardUnavailable<T extends object>(target: T, store: string, isUnreachable: (error: unknown) => boolean): T {
  const guarded = { ...target } as Record<string, unknown>;
  const named = (error: unknown): unknown => (isUnreachable(error) ? new StorageUnavailable(store, (error as Error).message) : error);
  for (const [name, value] of Object.entries(target)) {
    if (typeof value !== 'function') continue;
    guarded[name] = (...args: unknown[]) => {
      let result: unknown;
      try {
        result = (value as (...a: unknown[]) => unknown).apply(target, args);
      } catch (error) {
        throw named(error);
      }
      return result instanceof Promise
        ? result.catch((error: unknown) => {
            throw named(error);
          })
        : result;
    };
  }
  return guarded as T;
}
