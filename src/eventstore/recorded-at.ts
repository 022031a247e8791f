// Events are stamped in integer microseconds since the epoch. Date.now() only has milliseconds;
// performance.timeOrigin + performance.now() has microseconds but follows the monotonic clock, which
// drifts from the wall clock when NTP steps it. Use the precise value while it agrees with the wall
// clock to within a millisecond, and the wall clock (millisecond precision) when it does not.

export function nowMicros(): bigint {
  const wallMs = Date.now();
  const preciseMs = performance.timeOrigin + performance.now();
  const ms = Math.abs(preciseMs - wallMs) < 1 ? preciseMs : wallMs;
  return BigInt(Math.floor(ms * 1000));
}

export function microsToDate(micros: bigint): Date {
  return new Date(Number(micros / 1000n));
}
