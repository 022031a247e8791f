// The guillotine layer against a slow, plain recursion over every whole-centimetre cut.
import t, { type Test } from 'tap';
import { bestGuillotineLayer, type LayerSpot } from '../../src/planner/layer-pattern.js';
import { prng } from '../../bench/lib/seeded-orders.js';

/** Most a×b pieces (turnable) in an X×Y rectangle by guillotine cuts at whole units: the definition. */
function bruteForce(X: number, Y: number, a: number, b: number): number {
  const memo = new Map<number, number>();
  const best = (x: number, y: number): number => {
    const key = x * 10_000 + y;
    const seen = memo.get(key);
    if (seen !== undefined) return seen;
    let v = (x >= a && y >= b) || (x >= b && y >= a) ? 1 : 0;
    for (let c = 1; c <= x / 2; c++) v = Math.max(v, best(c, y) + best(x - c, y));
    for (let c = 1; c <= y / 2; c++) v = Math.max(v, best(x, c) + best(x, y - c));
    memo.set(key, v);
    return v;
  };
  return best(X, Y);
}

/** Every spot on the deck, the carton maybe turned, no two overlapping (an occupancy grid). */
function checkSpots(t: Test, spots: readonly LayerSpot[], X: number, Y: number, a: number, b: number): void {
  const problems: string[] = [];
  const used = new Uint8Array(X * Y);
  for (const s of spots) {
    if (s.x < 0 || s.y < 0 || s.x + s.l > X || s.y + s.w > Y) problems.push(`${s.x},${s.y} off the deck`);
    else if (!((s.l === a && s.w === b) || (s.l === b && s.w === a))) problems.push(`${s.x},${s.y}: ${s.l} x ${s.w}`);
    else {
      for (let x = s.x; x < s.x + s.l; x++) {
        for (let y = s.y; y < s.y + s.w; y++) {
          if (used[x * Y + y]) problems.push(`${s.x},${s.y} overlaps another`);
          used[x * Y + y] = 1;
        }
      }
    }
  }
  t.same(problems.slice(0, 5), [], `${spots.length} spots on the deck, none overlapping`);
}

t.test("known layers: the issue's cartons on EUR and GMA decks", async (t) => {
  t.equal(bestGuillotineLayer(1219, 1016, 300, 250).length, 16, '30 x 25 cm on GMA: 4 x 4');
  t.equal(bestGuillotineLayer(1219, 1016, 500, 500).length, 4, '50 x 50 cm on GMA');
  t.equal(bestGuillotineLayer(1200, 800, 500, 500).length, 2, '50 x 50 cm on EUR');
  t.equal(bestGuillotineLayer(1219, 1016, 600, 400).length, 5, '60 x 40 cm on GMA: a row of three turned, a row of two');
  t.equal(bestGuillotineLayer(1200, 800, 400, 300).length, 8);
  t.equal(bestGuillotineLayer(1200, 800, 1300, 100).length, 0, 'longer than the deck');
});

t.test('as many as the plain recursion over every cut finds, in centimetres', async (t) => {
  const rnd = prng(13);
  for (let k = 0; k < 6; k++) {
    const X = 60 + Math.floor(rnd() * 70);
    const Y = 40 + Math.floor(rnd() * 60);
    const a = 7 + Math.floor(rnd() * 30);
    const b = 5 + Math.floor(rnd() * 25);
    const spots = bestGuillotineLayer(X, Y, a, b);
    t.equal(spots.length, bruteForce(X, Y, a, b), `${a} x ${b} on ${X} x ${Y}`);
    checkSpots(t, spots, X, Y, a, b);
  }
});

t.test('tiny cartons on a big deck fall back to the best grid, still valid', async (t) => {
  const spots = bestGuillotineLayer(1219, 1016, 11, 7);
  t.ok(spots.length >= Math.floor(1219 / 11) * Math.floor(1016 / 7), `${spots.length} spots`);
  checkSpots(t, spots, 1219, 1016, 11, 7);
});
