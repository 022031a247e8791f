// The plan is in mm and grams; a warehouse worker reads the lane's units, the same ones the
// shipper submitted in. Submitted decimals ("120.500000") are shown without their padding.
import type { LengthUnit, WeightUnit } from '../master-data/master-data-document.js';
import { GRAMS_PER_UNIT, MM_PER_UNIT } from '../master-data/unit-factors.js';

export interface LaneUnits {
  length: LengthUnit;
  weight: WeightUnit;
}

const asNumber = ([numerator, denominator]: readonly [bigint, bigint]): number => Number(numerator) / Number(denominator);
const mmPer = (unit: LengthUnit): number => asNumber(MM_PER_UNIT[unit]);
const gramsPer = (unit: WeightUnit): number => asNumber(GRAMS_PER_UNIT[unit]);

// mm are whole; cm and inches keep one decimal, enough to place a carton by hand.
const LENGTH_DIGITS: Record<LengthUnit, 0 | 1> = { mm: 0, cm: 1, in: 1 };

// Formatters are costly to make and a large document formats tens of thousands of figures.
const PLAIN = [0, 1, 2].map((digits) => new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, useGrouping: false }));
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

function plain(value: number, maxDigits: 0 | 1 | 2): string {
  return PLAIN[maxDigits]!.format(value);
}

export function formatLength(mm: number, unit: LengthUnit): string {
  return plain(mm / mmPer(unit), LENGTH_DIGITS[unit]);
}

/** "1200 x 800 x 1650" in the lane's length unit. */
export function formatSize(l: number, w: number, h: number, unit: LengthUnit): string {
  return `${formatLength(l, unit)} x ${formatLength(w, unit)} x ${formatLength(h, unit)}`;
}

/** Light cartons keep two decimals so that 0.25 kg does not read as 0.3. */
export function formatWeight(g: number, unit: WeightUnit): string {
  const value = g / gramsPer(unit);
  return plain(value, Math.abs(value) < 10 ? 2 : 1);
}

/** A total for the summary, grouped for reading: "24,512.3 kg". */
export function formatTotalWeight(g: number, unit: WeightUnit): string {
  const value = g / gramsPer(unit);
  return `${GROUPED.format(value)} ${unit}`;
}

/** "120.500000" -> "120.5"; anything that is not a plain decimal is shown as given. */
export function formatDecimal(value: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(value)) return value;
  const trimmed = value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
  return trimmed === '-0' ? '0' : trimmed;
}

export function formatPercent(fraction: number): string {
  return `${plain(fraction * 100, 1)}%`;
}
