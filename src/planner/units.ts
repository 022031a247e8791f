// Lane units to the planner's integers (millimetres, grams), exactly: decimals are read as
// strings, never multiplied as floats. Sizes of cargo round up (a box never shrinks), limits
// round down (a pallet deck or a weight limit never grows).
import type { LengthUnit, WeightUnit } from '../master-data/master-data-document.js';

export type Rounding = 'up' | 'down';

/** A decimal (canonical string or number) as an exact count of millionths. */
export function toMicros(value: string | number): bigint {
  let text = typeof value === 'number' ? String(value) : value.trim();
  if (/e/i.test(text)) text = Number(text).toFixed(6);
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m) throw new Error(`not a decimal: ${value}`);
  const frac = (m[3] ?? '').padEnd(6, '0');
  // digits past the sixth round away from zero so a size never shrinks below its value
  const extra = frac.slice(6).replace(/0/g, '') !== '' ? 1n : 0n;
  const micros = BigInt(m[2] || '0') * 1_000_000n + BigInt(frac.slice(0, 6)) + extra;
  return m[1] === '-' ? -micros : micros;
}

function divide(n: bigint, d: bigint, rounding: Rounding): number {
  const q = n / d;
  return Number(rounding === 'up' && q * d < n ? q + 1n : q);
}

// length unit -> millimetres as a fraction
const MM: Record<LengthUnit, [bigint, bigint]> = { mm: [1n, 1n], cm: [10n, 1n], in: [254n, 10n] };
// weight unit -> grams as a fraction (1 lb = 453.59237 g exactly)
const GRAMS: Record<WeightUnit, [bigint, bigint]> = { kg: [1000n, 1n], lb: [45_359_237n, 100_000n] };

export function lengthToMm(value: string | number, unit: LengthUnit, rounding: Rounding): number {
  const [num, den] = MM[unit];
  return divide(toMicros(value) * num, 1_000_000n * den, rounding);
}

export function weightToG(value: string | number, unit: WeightUnit, rounding: Rounding): number {
  const [num, den] = GRAMS[unit];
  return divide(toMicros(value) * num, 1_000_000n * den, rounding);
}

/**
 * Units are whole: a fractional quantity (order_items allow decimals) rounds up to the next
 * whole unit, since part of a unit still has to ship as a unit.
 */
export function wholeUnits(quantity: string | number): number {
  return divide(toMicros(quantity), 1_000_000n, 'up');
}
