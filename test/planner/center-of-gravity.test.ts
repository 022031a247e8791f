import t from 'tap';
import { centerOfGravity, cogLimits, withinCogLimits } from '../../src/planner/center-of-gravity.js';

const inner = { l: 12000, w: 2350 };

t.test('the centre of gravity weighs each box at its centre', async (t) => {
  const cog = centerOfGravity([
    { x: 0, y: 0, z: 0, l: 1000, w: 1000, h: 1000, weight_g: 3000 },
    { x: 2000, y: 0, z: 0, l: 1000, w: 1000, h: 2000, weight_g: 1000 },
  ]);
  t.same(cog, { x: 1000, y: 500, z: 625, weight_g: 4000 });
  t.equal(centerOfGravity([]), null, 'nothing loaded has no centre');
});

t.test('limits are 5 % of the inner length and width around the middle, inclusive', async (t) => {
  t.same(cogLimits(inner), { x: [5400, 6600], y: [1057.5, 1292.5] });
  const at = (x: number, y: number) => withinCogLimits({ x, y, z: 0, weight_g: 1 }, inner);
  t.ok(at(6000, 1175));
  t.ok(at(6600, 1292.5), 'on the limit is within');
  t.notOk(at(6601, 1175), 'past the length limit');
  t.notOk(at(6000, 1050), 'off the centreline');
  t.ok(withinCogLimits(null, inner), 'an empty container is within');
});
