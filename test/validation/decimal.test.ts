// src/orders/decimal.ts: parsing with digit limits, canonical form, integer millionths.
import t from 'tap';
import { compareDecimals, fromMicros, isCanonicalDecimal, parseDecimal, toMicros, type DecimalRule } from '../../src/validation/decimal.js';

const DIMENSION: DecimalRule = { maxDigits: 12, exclusiveMinimum: '0' };
const WEIGHT: DecimalRule = { maxDigits: 15, exclusiveMinimum: '0' };
const QUANTITY: DecimalRule = { maxDigits: 15, minimum: '0.01' };

const SYNTAX =
  'Enter a plain decimal number such as "120.5" or 120.5: digits with an optional "." and decimals; no "+", spaces, exponent or hex.';
const DECIMALS = 'Ensure that there are no more than 6 decimal places.';
const DIMENSION_DIGITS =
  'Ensure that there are no more than 6 digits before the decimal point (at most 12 digits in total, 6 of them decimals).';
const WEIGHT_DIGITS =
  'Ensure that there are no more than 9 digits before the decimal point (at most 15 digits in total, 6 of them decimals).';

t.test('normalizes strings and numbers to exactly six decimals', async (t) => {
  const cases: [string | number, string][] = [
    ['120.5', '120.500000'],
    [12, '12.000000'],
    ['12', '12.000000'],
    [120.5, '120.500000'],
    [0.1, '0.100000'],
    ['007.25', '7.250000'],
    ['0.000001', '0.000001'],
    [1e3, '1000.000000'],
    ['120.500000', '120.500000'],
  ];
  for (const [input, expected] of cases) t.strictSame(parseDecimal(input, DIMENSION), { ok: true, value: expected }, JSON.stringify(input));
});

t.test('12 digits with 6 decimals is the most a dimension takes; 13 is refused', async (t) => {
  t.strictSame(parseDecimal('123456.123456', DIMENSION), { ok: true, value: '123456.123456' });
  t.strictSame(parseDecimal(999999.999999, DIMENSION), { ok: true, value: '999999.999999' });
  t.strictSame(parseDecimal('1234567.123456', DIMENSION), { ok: false, errors: [DIMENSION_DIGITS] });
  t.strictSame(
    parseDecimal('1234567', DIMENSION),
    { ok: false, errors: [DIMENSION_DIGITS] },
    'seven whole digits need 13 with the six stored decimals',
  );
  t.strictSame(parseDecimal(1234567, DIMENSION), { ok: false, errors: [DIMENSION_DIGITS] });
});

t.test('leading zeros do not count as digits', async (t) => {
  t.strictSame(parseDecimal('0000123456.5', DIMENSION), { ok: true, value: '123456.500000' });
});

t.test('15 digits with 6 decimals is the most a weight takes; 16 is refused', async (t) => {
  t.strictSame(parseDecimal('123456789.123456', WEIGHT), { ok: true, value: '123456789.123456' });
  t.strictSame(parseDecimal('1234567890.123456', WEIGHT), { ok: false, errors: [WEIGHT_DIGITS] });
});

t.test('six decimals are taken, seven are refused, as strings and as numbers', async (t) => {
  t.strictSame(parseDecimal('1.123456', DIMENSION), { ok: true, value: '1.123456' });
  t.strictSame(parseDecimal('1.1234567', DIMENSION), { ok: false, errors: [DECIMALS] });
  t.strictSame(parseDecimal(1.1234567, DIMENSION), { ok: false, errors: [DECIMALS] });
  t.strictSame(parseDecimal('1.0000000', DIMENSION), { ok: false, errors: [DECIMALS] }, 'written decimals count, like max_digits');
});

t.test('numbers JavaScript writes with an exponent are judged by their value', async (t) => {
  t.strictSame(parseDecimal(1e-7, DIMENSION), { ok: false, errors: [DECIMALS] });
  t.strictSame(parseDecimal(1.5e-6, DIMENSION), { ok: false, errors: [DECIMALS] });
  t.strictSame(parseDecimal(1e21, WEIGHT), { ok: false, errors: [WEIGHT_DIGITS] });
  t.strictSame(parseDecimal(1e-6, DIMENSION), { ok: true, value: '0.000001' });
});

t.test('bounds: > 0 for dimensions, >= 0.01 for quantities', async (t) => {
  t.strictSame(parseDecimal('0', DIMENSION), { ok: false, errors: ['Ensure this value is greater than 0.'] });
  t.strictSame(parseDecimal('-1', DIMENSION), { ok: false, errors: ['Ensure this value is greater than 0.'] });
  t.strictSame(parseDecimal('0.000001', DIMENSION), { ok: true, value: '0.000001' });
  t.strictSame(parseDecimal(0.01, QUANTITY), { ok: true, value: '0.010000' });
  t.strictSame(parseDecimal('0.01', QUANTITY), { ok: true, value: '0.010000' });
  t.strictSame(parseDecimal(0.009, QUANTITY), { ok: false, errors: ['Ensure this value is greater than or equal to 0.01.'] });
  t.strictSame(parseDecimal('0.009999', QUANTITY), { ok: false, errors: ['Ensure this value is greater than or equal to 0.01.'] });
});

t.test('every problem of one value is reported together', async (t) => {
  t.strictSame(parseDecimal('-1234567.1234567', DIMENSION), {
    ok: false,
    errors: [DECIMALS, DIMENSION_DIGITS, 'Ensure this value is greater than 0.'],
  });
});

t.test('refuses "+", spaces, exponents, hex and half-written numbers in strings', async (t) => {
  for (const input of ['+1', ' 1', '1 ', '1e3', '1E3', '0x10', '1.', '.5', '', '1,5', 'NaN', 'Infinity', '１２']) {
    t.strictSame(parseDecimal(input, DIMENSION), { ok: false, errors: [SYNTAX] }, JSON.stringify(input));
  }
});

t.test('refuses NaN, infinities and non-numbers', async (t) => {
  for (const input of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    t.strictSame(parseDecimal(input, DIMENSION), { ok: false, errors: ['Expected a finite number.'] }, String(input));
  }
  for (const input of [true, null, undefined, {}, []]) {
    t.strictSame(parseDecimal(input, DIMENSION), {
      ok: false,
      errors: ['Expected a decimal number, as a string such as "120.5" or a JSON number.'],
    });
  }
});

t.test('toMicros and fromMicros convert exactly, both ways', async (t) => {
  t.equal(toMicros('120.500000'), 120_500_000n);
  t.equal(toMicros('120.5'), 120_500_000n);
  t.equal(toMicros('12'), 12_000_000n);
  t.equal(toMicros('0.000001'), 1n);
  t.equal(toMicros('-1.25'), -1_250_000n);
  t.equal(toMicros('999999999.999999'), 999_999_999_999_999n, 'beyond 2^53 no precision is lost');
  t.equal(fromMicros(120_500_000n), '120.500000');
  t.equal(fromMicros(1n), '0.000001');
  t.equal(fromMicros(-1_250_000n), '-1.250000');
  t.equal(fromMicros(0n), '0.000000');
  for (const value of ['0.000001', '1.000000', '123456789.123456']) t.equal(fromMicros(toMicros(value)), value);
});

t.test('toMicros refuses what it cannot convert exactly', async (t) => {
  t.throws(() => toMicros('1.1234567'), RangeError);
  t.throws(() => toMicros('1e3'), RangeError);
  t.throws(() => toMicros(''), RangeError);
});

t.test('compareDecimals compares exactly at any precision', async (t) => {
  t.equal(compareDecimals('0.01', '0.009999999999'), 1);
  t.equal(compareDecimals('0.0100', '0.01'), 0);
  t.equal(compareDecimals('-1', '0'), -1);
  t.equal(compareDecimals('12345678901234567890.1', '12345678901234567890.01'), 1);
});

t.test('isCanonicalDecimal accepts only the stored form', async (t) => {
  t.ok(isCanonicalDecimal('120.500000'));
  t.ok(isCanonicalDecimal('0.000001'));
  for (const value of ['120.5', '007.500000', '1.0000000', '-0.000000', '+1.000000']) t.notOk(isCanonicalDecimal(value), value);
});
