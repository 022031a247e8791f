// Palletizing skips a block search that cannot beat the option before it (palletizations.ts). The
// plans must be the ones every search gives: checked on seeded orders like bench:pipeline's (30 SKUs
// on the lane, 3 to 8 in an order of about 500 units), on one pallet type and on two.
import t from 'tap';
import { palletizations } from '../../src/planner/palletizations.js';
import { orderDemand } from '../../src/planner/sku-demand.js';
import { PlannerWasm } from '../../src/planner/planner-wasm.js';
import { plannerInput } from '../../src/planning/planner-input.js';
import { EUR, GMA, item, lane, line, order } from './fixtures.js';

function seeded(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const random = seeded(42);
const items = Array.from({ length: 30 }, (_, i) =>
  item(
    `SKU-${i}`,
    20 + Math.floor(random() * 40),
    15 + Math.floor(random() * 30),
    10 + Math.floor(random() * 30),
    Math.round((1 + random() * 15) * 10) / 10,
    random() < 0.4,
  ),
);

function anOrder(k: number) {
  const skus = 3 + Math.floor(random() * 6);
  const picked = [...items].sort(() => random() - 0.5).slice(0, skus);
  return order({
    reference: `O-${k}`,
    order_items: picked.map((it) => line(it.sku, Math.max(1, Math.floor((500 / skus) * (0.5 + random()))))),
  });
}

const wasm = new PlannerWasm();
let palletizeJobs = 0;
const run = wasm.run.bind(wasm);
wasm.run = (job, input) => {
  if (job === 'palletize') palletizeJobs++;
  return run(job, input);
};
// the effort budget alone ends the searches, so both runs search alike
const limits = { timeLimitMs: 1e9, effort: 4000 };

for (const types of [[EUR], [EUR, GMA]]) {
  t.test(`skipping the searches that cannot win changes no palletization (${types.map((p) => p.code).join(' + ')})`, async (t) => {
    let skipping = 0;
    let every = 0;
    for (let k = 0; k < 12; k++) {
      const input = plannerInput({ lane: lane(items, types), order: anOrder(k) });
      const demand = orderDemand(input.items, input.lines);
      palletizeJobs = 0;
      const fewer = palletizations(wasm, demand, input.palletTypes, limits, 1);
      skipping += palletizeJobs;
      palletizeJobs = 0;
      const all = palletizations(wasm, demand, input.palletTypes, limits, 1, true);
      every += palletizeJobs;
      t.same(fewer, all, `order ${k}: the same pallets`);
    }
    t.ok(skipping < every, `searches run: ${skipping} skipping, ${every} running every one`);
  });
}
