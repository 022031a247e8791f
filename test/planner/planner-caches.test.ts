// The planner thread's caches (src/planner/planner-caches.ts): an order planned again is answered
// from them with the same plan, and a master-data item that changed (its size, its weight) is
// never served what was found for it before: the plan is the one a thread with empty caches makes.
import t, { type Test } from 'tap';
import { BoundedCache, cacheCounts, clearPlannerCaches, palletizeCache } from '../../src/planner/planner-caches.js';
import { PlannerWasm } from '../../src/planner/planner-wasm.js';
import { plannerInput } from '../../src/planning/planner-input.js';
import { EUR, GMA, item, lane, line, order } from './fixtures.js';
import { planChecked, withoutTiming } from './plan.js';
import type { ItemDocument } from '../../src/master-data/master-data-document.js';

const catalogue = (b: ItemDocument) => lane([item('A', 40, 30, 25, 9.5), b, item('C', 33, 22, 18, 4, true)], [EUR, GMA]);
const anOrder = order({ order_items: [line('A', 130), line('B', 95), line('C', 170)], order_containers: [{ code: '40ft', count: 3 }] });
const before = item('B', 60, 40, 30, 14, true);

/** The plan a thread with nothing in its caches makes. */
function cold(t: Test, input: Parameters<typeof planChecked>[1]) {
  clearPlannerCaches();
  return planChecked(t, input);
}

t.test('an order planned again is answered from the caches, with the same plan', async (t) => {
  const input = { lane: catalogue(before), order: anOrder };
  const first = cold(t, input);
  const again = planChecked(t, input);
  t.same(withoutTiming(again), withoutTiming(first));
  t.ok(
    again.metrics.caches!.palletize.hits > 0 && again.metrics.caches!.palletize.hits === again.metrics.caches!.palletize.lookups,
    `every palletizing job answered from the cache (${JSON.stringify(again.metrics.caches)})`,
  );
  t.ok(again.metrics.caches!.load.hits > 0, 'the loading too');
  t.same(again.metrics.search_exits, { all_placed: 0, effort: 0, widest_beam: 0, time_limit: 0 }, 'no search ran');
  t.ok(first.metrics.caches!.layers.lookups > 0, 'the layers of the items were looked up');
});

for (const [change, after] of [
  ['its size', item('B', 50, 40, 30, 14, true)],
  ['its footprint turned', item('B', 40, 60, 30, 14, true)],
  ['its weight', item('B', 60, 40, 30, 41, true)],
  ['whether it may lie on its side', item('B', 60, 40, 30, 14, false)],
] as const) {
  t.test(`an item whose ${change} changed is planned as new, never from what was kept for it`, async (t) => {
    const old = { lane: catalogue(before), order: anOrder };
    const changed = { lane: catalogue(after), order: anOrder };
    const fresh = withoutTiming(cold(t, changed));
    // the caches full of the old item (planned twice, so every job of it is kept), then the new one
    cold(t, old);
    planChecked(t, old);
    const warm = planChecked(t, changed);
    t.same(withoutTiming(warm), fresh, 'the plan a thread with empty caches makes');
    t.ok(
      warm.metrics.caches!.layers.hits > 0,
      `the items that did not change still come from the cache (${JSON.stringify(warm.metrics.caches)})`,
    );
  });
}

t.test('the change matters: the old and the new item plan differently', async (t) => {
  const plans = [before, item('B', 50, 40, 30, 14, true), item('B', 60, 40, 30, 41, true)].map((b) =>
    JSON.stringify(withoutTiming(cold(t, { lane: catalogue(b), order: anOrder }))),
  );
  t.equal(new Set(plans).size, plans.length, 'three items, three plans: a cache that ignored the change would be caught above');
});

t.test('a job the time limit cut short is not kept', async (t) => {
  clearPlannerCaches();
  const wasm = new PlannerWasm();
  const input = plannerInput({
    lane: lane(Array.from({ length: 40 }, (_, i) => item(`S${i}`, 11 + i, 9 + (i % 7), 7 + (i % 5), 1))),
    order: order({ order_items: Array.from({ length: 40 }, (_, i) => line(`S${i}`, 150)) }),
  });
  const wire = [1200, 800, 2056, 1_475_000, 1, 1e9, 1, -1, 1, input.items.length];
  for (const it of input.items) wire.push(it.l, it.w, it.h, it.weightG, 150, 63, 0, 1, 0, -1);
  const answer = wasm.run('palletize', Int32Array.from(wire));
  t.equal(answer[1], 1, 'a 1 ms limit cut the search');
  t.equal(palletizeCache.size().entries, 0, 'nothing kept');
  t.equal(cacheCounts().palletize.lookups, 1);
});

t.test('a cache keeps to its bound, the least recently used going first', async (t) => {
  const cache = new BoundedCache<string>('test', 80, 'units');
  for (let i = 0; i < 10; i++) cache.set(`k${i}`, `v${i}`, 10);
  t.same(cache.size(), { entries: 8, cost: 80 });
  t.equal(cache.get('k0'), undefined, 'the oldest went first');
  t.equal(cache.get('k2'), 'v2');
  cache.set('k10', 'v10', 10);
  t.equal(cache.get('k2'), 'v2', 'one just read stays');
  t.equal(cache.get('k3'), undefined, 'the least recently used went');
  cache.set('big', 'x', 11);
  t.equal(cache.get('big'), undefined, 'an entry over an eighth of the bound is not kept');
  t.same({ hits: cache.hits, misses: cache.misses }, { hits: 2, misses: 3 });
});
