// Lane units to the planner's integers (millimetres, grams), exactly: decimals are read as
// strings, never multiplied as floats. Sizes of cargo round up (a box never shrinks), limits
// round down (a pallet deck or a weight limit never grows).
import type { LengthUnit, WeightUnit } from '../master-data/master-data-document.js';
import { GRAMS_PER_UNIT, MM_PER_UNIT } from '../master-data/unit-factors.js';
import { toMicros as toMicrosExact } from '../validation/decimal.js';

export type Rounding = 'up' | 'down';

const toMicros = (value: string | number): bigint => toMicrosExact(value, 'round-away');

function divide(n: bigint, d: bigint, rounding: Rounding): number {
  const q = n / d;
  return Number(rounding === 'up' && q * d < n ? q + 1n : q);
}

export function lengthToMm(value: string | number, unit: LengthUnit, rounding: Rounding): number {
  const [num, den] = MM_PER_UNIT[unit];
  return divide(toMicros(value) * num, 1_000_000n * den, rounding);
}

export function weightToG(value: string | number, unit: WeightUnit, rounding: Rounding): number {
  const [num, den] = GRAMS_PER_UNIT[unit];
  return divide(toMicros(value) * num, 1_000_000n * den, rounding);
}

/**
 * Units are whole: a fractional quantity (order_items allow decimals) rounds up to the next
 * whole unit, since part of a unit still has to ship as a unit.
 */
export function wholeUnits(quantity: string | number): number {
  return divide(toMicros(quantity), 1_000_000n, 'up');
}
