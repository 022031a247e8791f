import t from 'tap';
import { EUR, item, lane, line, order } from './fixtures.js';
import { planChecked } from './plan.js';

t.test('a plan at the lower bound returns at once and says so; the searches in it stopped once every unit was placed', async (t) => {
  const plan = planChecked(t, {
    lane: lane([item('A', 40, 30, 25, 9.5)], [EUR]),
    order: order({ order_items: [line('A', 40)], order_containers: [{ code: '40ft', count: 2 }] }),
  });
  t.equal(plan.metrics.exit, 'lower_bound');
  t.equal(plan.containers.length, plan.metrics.container_lower_bound, 'containers at their bound');
  t.equal(plan.pallets.length, plan.metrics.pallet_lower_bound, 'pallets at their bound');
  t.same(plan.unplaced, []);
  t.ok(plan.containers.every((c) => c.within_cog_limits));
  t.ok((plan.metrics.search_exits?.all_placed ?? 0) > 0, 'a search returned with every unit placed');
});

t.test('a plan short of the bound tries every candidate', async (t) => {
  // 70 cm cubes: two stand on a EUR pallet, while their volume alone would fit five
  const plan = planChecked(t, {
    lane: lane([item('C', 70, 70, 70, 30)], [EUR]),
    order: order({ order_items: [line('C', 10)], order_containers: [{ code: '40ft', count: 1 }] }),
  });
  t.ok(plan.pallets.length > plan.metrics.pallet_lower_bound, `${plan.pallets.length} pallets, bound ${plan.metrics.pallet_lower_bound}`);
  t.equal(plan.metrics.exit, 'searched');
});
