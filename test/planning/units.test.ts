import t from 'tap';
import { lengthToMm, wholeUnits, weightToG } from '../../src/planning/units.js';
import { toMicros } from '../../src/validation/decimal.js';

t.test('lane lengths become whole millimetres, cargo rounded up and limits down', async (t) => {
  t.equal(lengthToMm('14.400000', 'cm', 'up'), 144);
  t.equal(lengthToMm(14.4, 'cm', 'down'), 144, 'a number converts exactly like its decimal string');
  t.equal(lengthToMm('10.050000', 'cm', 'up'), 101);
  t.equal(lengthToMm('10.050000', 'cm', 'down'), 100);
  t.equal(lengthToMm('48.000000', 'in', 'up'), 1220, '48 in is 1219.2 mm');
  t.equal(lengthToMm('48.000000', 'in', 'down'), 1219);
  t.equal(lengthToMm('1200.000000', 'mm', 'up'), 1200);
});

t.test('lane weights become whole grams', async (t) => {
  t.equal(weightToG('9.500000', 'kg', 'up'), 9500);
  t.equal(weightToG('1.000000', 'lb', 'up'), 454, '1 lb is 453.59237 g');
  t.equal(weightToG('1.000000', 'lb', 'down'), 453);
  t.equal(weightToG(0.0001, 'kg', 'up'), 1, 'a tenth of a gram still weighs a gram');
});

t.test('fractional quantities round up to whole units', async (t) => {
  t.equal(wholeUnits('12.000000'), 12);
  t.equal(wholeUnits('12.010000'), 13);
  t.equal(wholeUnits('0.010000'), 1);
  t.equal(toMicros('3.1234567', 'round-away'), 3_123_457n, 'digits past the sixth round up');
});
