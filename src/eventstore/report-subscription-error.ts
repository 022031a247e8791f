// How every adapter's subscription ends on a failure: the subscriber's onError hears of it; with no
// onError (or one that throws), the process fails loudly rather than stop delivering in silence.
export function reportSubscriptionError(onError: ((error: unknown) => void) | undefined, error: unknown): void {
  const raise = (thrown: unknown) =>
    process.nextTick(() => {
      throw thrown;
    });
  if (!onError) return raise(error);
  try {
    onError(error);
  } catch (thrown) {
    raise(thrown);
  }
}
