// Decimal quantities, dimensions and weights of the order API (spec 2.4-2.6, 8). They arrive as
// JSON numbers or decimal strings and are kept as canonical strings with exactly six decimals
// ("120.5" -> "120.500000"), so that what is stored and shown back never depends on binary
// floating point. Arithmetic (the load planner) works on integer millionths: toMicros/fromMicros.
/** A decimal as a canonical string with six decimals, e.g. "120.000000". */
export type Decimal = string;

/** Every decimal of the API is stored with this many decimals. */
export const DECIMAL_PLACES = 6;
const MICROS_PER_UNIT = 10n ** BigInt(DECIMAL_PLACES);

/** The limits of one decimal field. */
export interface DecimalRule {
  /** Most digits in total once written with DECIMAL_PLACES decimals (Django's max_digits): 12 leaves 6 before the point. */
  maxDigits: number;
  /** Inclusive lower bound, as a plain decimal string. */
  minimum?: string;
  /** Exclusive lower bound, as a plain decimal string. */
  exclusiveMinimum?: string;
  /** Inclusive upper bound, as a plain decimal string. */
  maximum?: string;
}

export type DecimalParseResult = { ok: true; value: Decimal } | { ok: false; errors: string[] };

// Digits, optionally a point followed by at least one digit. A sign other than "-", spaces,
// exponents, hex, "1." and ".5" are refused: an ERP that sends them has a formatting bug worth seeing.
const PLAIN_DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;
// What the planner was always given leeway on: "12.", ".5".
const LENIENT_DECIMAL = /^(-?)([0-9]*)(?:\.([0-9]*))?$/;
const CANONICAL_DECIMAL = /^-?(?:0|[1-9][0-9]*)\.[0-9]{6}$/;

export const DECIMAL_SYNTAX_MESSAGE =
  'Enter a plain decimal number such as "120.5" or 120.5: digits with an optional "." and decimals; no "+", spaces, exponent or hex.';

/** The digits left for the whole part once DECIMAL_PLACES are reserved for decimals. */
export function maxWholeDigits(rule: DecimalRule): number {
  return rule.maxDigits - DECIMAL_PLACES;
}

/**
 * Checks a JSON value against a decimal rule and returns its canonical form, or every problem
 * with it (a value can have too many decimals and be below the minimum at once).
 */
export function parseDecimal(input: unknown, rule: DecimalRule): DecimalParseResult {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, errors: ['Expected a finite number.'] };
    // The shortest text that round-trips is what the client meant: 0.1 is "0.1", not 0.1000000000000000055.
    text = plainNumberText(input);
  } else if (typeof input === 'string') {
    text = input;
  } else {
    return { ok: false, errors: ['Expected a decimal number, as a string such as "120.5" or a JSON number.'] };
  }
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) return { ok: false, errors: [DECIMAL_SYNTAX_MESSAGE] };
  const [, sign = '', rawWhole = '', decimals = ''] = match;
  const whole = rawWhole.replace(/^0+/, '');

  const errors: string[] = [];
  const wholeLimit = maxWholeDigits(rule);
  if (decimals.length > DECIMAL_PLACES) errors.push(`Ensure that there are no more than ${DECIMAL_PLACES} decimal places.`);
  if (whole.length > wholeLimit) {
    errors.push(
      `Ensure that there are no more than ${wholeLimit} digits before the decimal point (at most ${rule.maxDigits} digits in total, ${DECIMAL_PLACES} of them decimals).`,
    );
  }
  const value = `${sign}${whole || '0'}${decimals ? `.${decimals}` : ''}`;
  if (rule.minimum !== undefined && compareDecimals(value, rule.minimum) < 0) {
    errors.push(`Ensure this value is greater than or equal to ${rule.minimum}.`);
  }
  if (rule.exclusiveMinimum !== undefined && compareDecimals(value, rule.exclusiveMinimum) <= 0) {
    errors.push(`Ensure this value is greater than ${rule.exclusiveMinimum}.`);
  }
  if (rule.maximum !== undefined && compareDecimals(value, rule.maximum) > 0) {
    errors.push(`Ensure this value is less than or equal to ${rule.maximum}.`);
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: fromMicros(toMicros(value)) };
}

/** Whether a string is a decimal in the stored form: no leading zeros, exactly six decimals. */
export function isCanonicalDecimal(value: string): boolean {
  return CANONICAL_DECIMAL.test(value) && value !== '-0.000000';
}

/**
 * A decimal ("120.500000", "120.5", "12") as integer millionths. `exact` refuses what it cannot
 * convert exactly. The load planner uses `round-away`: a JSON number of the master data converts
 * like its decimal string, and digits past the sixth round away from zero, so a size never shrinks.
 */
export function toMicros(value: string | number, pastSixthDigit: 'exact' | 'round-away' = 'exact'): bigint {
  let text = typeof value === 'number' ? String(value) : value;
  if (pastSixthDigit === 'round-away') {
    text = text.trim();
    if (/e/i.test(text)) text = Number(text).toFixed(DECIMAL_PLACES);
  }
  const match = (pastSixthDigit === 'exact' ? PLAIN_DECIMAL : LENIENT_DECIMAL).exec(text);
  if (!match || (pastSixthDigit === 'exact' && (match[3] ?? '').length > DECIMAL_PLACES)) {
    throw new RangeError(`Not a decimal with at most ${DECIMAL_PLACES} decimals: ${JSON.stringify(value)}`);
  }
  const [, sign = '', whole = '', decimals = ''] = match;
  const kept = decimals.padEnd(DECIMAL_PLACES, '0');
  const roundedAway = /[1-9]/.test(kept.slice(DECIMAL_PLACES)) ? 1n : 0n;
  const micros = BigInt(whole || '0') * MICROS_PER_UNIT + BigInt(kept.slice(0, DECIMAL_PLACES)) + roundedAway;
  return sign === '-' ? -micros : micros;
}

/** Integer millionths as a canonical decimal string: 120500000n -> "120.500000". */
export function fromMicros(micros: bigint): Decimal {
  const negative = micros < 0n;
  const magnitude = negative ? -micros : micros;
  const whole = magnitude / MICROS_PER_UNIT;
  const decimals = (magnitude % MICROS_PER_UNIT).toString().padStart(DECIMAL_PLACES, '0');
  return `${negative ? '-' : ''}${whole}.${decimals}`;
}

/** Compares two plain decimal strings of any precision exactly: -1, 0 or 1. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const [aInt, aScale] = scaled(a);
  const [bInt, bScale] = scaled(b);
  const scale = Math.max(aScale, bScale);
  const left = aInt * 10n ** BigInt(scale - aScale);
  const right = bInt * 10n ** BigInt(scale - bScale);
  return left < right ? -1 : left > right ? 1 : 0;
}

function scaled(decimal: string): [bigint, number] {
  const match = PLAIN_DECIMAL.exec(decimal);
  if (!match) throw new RangeError(`Not a plain decimal: ${JSON.stringify(decimal)}`);
  const [, sign = '', whole = '', decimals = ''] = match;
  const value = BigInt(whole + decimals);
  return [sign === '-' ? -value : value, decimals.length];
}

/**
 * A finite number as plain decimal text. JavaScript writes very small and very large numbers with
 * an exponent (1e-7, 1e+21); spell those out so that the digit rules judge the actual value.
 */
function plainNumberText(value: number): string {
  const text = String(value);
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?e([+-][0-9]+)$/.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', decimals = '', exponent = '0'] = match;
  const digits = whole + decimals;
  const point = whole.length + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
