// Whether a store answers now: a probe with a short deadline, for a replica deciding whether it can
// do work for all the others (its singleton lease's `able`, singleton-lease.ts) rather than hold it
// while it cannot.

/** Whether `call` settles without an error within `ms`. */
export function answersWithin(call: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    call.then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
