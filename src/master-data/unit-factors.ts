// How much a lane's units are in millimetres and grams, as exact fractions [numerator, denominator]:
// the planner converts with them exactly, the PDF divides by them to show the lane's units again.
import type { LengthUnit, WeightUnit } from './master-data-document.js';

export const MM_PER_UNIT: Readonly<Record<LengthUnit, readonly [bigint, bigint]>> = { mm: [1n, 1n], cm: [10n, 1n], in: [254n, 10n] };
// 1 lb = 453.59237 g exactly.
export const GRAMS_PER_UNIT: Readonly<Record<WeightUnit, readonly [bigint, bigint]>> = { kg: [1000n, 1n], lb: [45_359_237n, 100_000n] };
