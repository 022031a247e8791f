// Property-based: random lanes, pallet types and orders; every plan must pass the validator.
import fc from 'fast-check';
import t from 'tap';
import type { LaneDocument, LengthUnit, WeightUnit } from '../../src/master-data/master-data-document.js';
import { CONTAINER_CODES, type SubmitOrderPayload } from '../../src/orders/submit-order-payload.js';
import { CONTAINER_CATALOG } from '../../src/planner/containers.js';
import { packContainer } from '../../src/planner/checks/br-packer.js';
import type { OrderPlan } from '../../src/plan-contract/plan-types.js';
import { PlannerWasm } from '../../src/planner/planner-wasm.js';
import { validateBrPacking } from '../../src/planner/checks/validate-br-packing.js';
import { line, looseBox, order, preBuilt } from './fixtures.js';
import { planChecked } from './plan.js';

const SEED = Number(process.env.PLANNER_PROPERTY_SEED ?? 20_240_601);
const RUNS = Number(process.env.PLANNER_PROPERTY_RUNS ?? 40);

// sizes are drawn in cm and kg and written in the lane's units
const LENGTH_PER_CM: Record<LengthUnit, number> = { mm: 10, cm: 1, in: 1 / 2.54 };
const WEIGHT_PER_KG: Record<WeightUnit, number> = { kg: 1, lb: 1 / 0.45359237 };
const round2 = (v: number): number => Math.round(v * 100) / 100;
const cm = (lo: number, hi: number) => fc.integer({ min: lo * 10, max: hi * 10 }).map((v) => v / 10);

const palletType = fc.record({
  length: cm(80, 130),
  width: cm(60, 120),
  height: cm(10, 16),
  weight: cm(15, 30),
  max_height: cm(120, 240),
  max_weight: cm(600, 1600),
});
const sku = fc.record({ length: cm(5, 70), width: cm(5, 60), height: cm(3, 60), weight: cm(0.2, 60), upright: fc.boolean() });
const flags = fc.record({
  double_stacked_bottom: fc.boolean(),
  double_stacked_top: fc.boolean(),
  rotation_x: fc.boolean(),
  rotation_y: fc.boolean(),
  rotation_z: fc.boolean(),
});
const preBuiltRow = fc.record({
  l: cm(60, 130),
  w: cm(60, 130),
  h: cm(50, 200),
  weight: cm(50, 800),
  count: fc.integer({ min: 1, max: 6 }),
  flags,
});
const looseRow = fc.record({
  l: cm(10, 150),
  w: cm(10, 120),
  h: cm(10, 120),
  weight: cm(1, 300),
  count: fc.integer({ min: 1, max: 20 }),
  flags,
});

const randomOrder = fc.record({
  length: fc.constantFrom<LengthUnit>('mm', 'cm', 'in'),
  weight: fc.constantFrom<WeightUnit>('kg', 'lb'),
  pallet: palletType,
  skus: fc.array(sku, { minLength: 0, maxLength: 6 }),
  quantities: fc.array(fc.tuple(fc.integer({ min: 1, max: 150 }), fc.boolean(), fc.constantFrom('', 'PO-1', 'PO-2')), {
    minLength: 6,
    maxLength: 6,
  }),
  ghost: fc.boolean(),
  preBuilts: fc.array(preBuiltRow, { maxLength: 2 }),
  loose: fc.array(looseRow, { maxLength: 3 }),
  containers: fc.uniqueArray(fc.constantFrom(...CONTAINER_CODES), { minLength: 1, maxLength: 3 }),
  counts: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }),
  seed: fc.integer({ min: 1, max: 1000 }),
});

/**
 * Spec 2.8 and issue 13: a pallet or pre-built left out_of_containers while a listed container type is
 * under its count and would hold it alone (upright, either way round when it may turn) is a missed load.
 */
function leftWithRoom(plan: OrderPlan, payload: SubmitOrderPayload, unitsPerMm: number, unitsPerG: number): string[] {
  const used = new Map<string, number>();
  for (const c of plan.containers) used.set(c.code, (used.get(c.code) ?? 0) + 1);
  const free = payload.order_containers.filter((c) => (used.get(c.code) ?? 0) < c.count).map((c) => CONTAINER_CATALOG[c.code]);
  const missed: string[] = [];
  for (const u of plan.unplaced) {
    if (u.reason !== 'out_of_containers') continue;
    let size: { l: number; w: number; h: number; g: number; turns: boolean } | undefined;
    if (u.kind === 'pallet') {
      const p = plan.pallets.find((x) => x.pallet_index === u.ref)!;
      size = { l: p.length_mm, w: p.width_mm, h: p.height_mm, g: p.weight_g, turns: true };
    } else if (u.kind === 'pre_built') {
      const b = payload.pre_builts.find((x) => x.name === u.ref)!;
      size = {
        l: Number(b.length) / unitsPerMm,
        w: Number(b.width) / unitsPerMm,
        h: Number(b.height) / unitsPerMm,
        g: Number(b.weight) / unitsPerG,
        turns: b.rotation_x,
      };
    }
    if (!size) continue;
    const s = size;
    const holder = free.find(
      (c) =>
        s.h + 1 <= c.inner_mm.h &&
        s.g + 1 <= c.payload_kg * 1000 &&
        ((s.l + 1 <= c.inner_mm.l && s.w + 1 <= c.inner_mm.w) || (s.turns && s.w + 1 <= c.inner_mm.l && s.l + 1 <= c.inner_mm.w)),
    );
    if (holder) missed.push(`${u.kind} ${u.ref} left behind, a ${holder.code} is unused`);
  }
  return missed;
}

t.test('every plan of a random order passes the validator', async (t) => {
  fc.assert(
    fc.property(randomOrder, (r) => {
      const len = (v: number): number => round2(v * LENGTH_PER_CM[r.length]);
      const wt = (v: number): number => round2(v * WEIGHT_PER_KG[r.weight]);
      const p = r.pallet;
      const lane: LaneDocument = {
        id: 1,
        supplier: 'S',
        consignee: 'C',
        transportation_modes: ['OceanFCL'],
        units: { length: r.length, weight: r.weight },
        pallet_types: [
          {
            code: 'P',
            length: len(p.length),
            width: len(p.width),
            height: len(p.height),
            weight: wt(p.weight),
            max_height: len(p.max_height),
            max_weight: wt(p.max_weight),
          },
        ],
        container_codes: [...CONTAINER_CODES],
        items: r.skus.map((s, i) => ({
          sku: `S${i}`,
          length: len(s.length),
          width: len(s.width),
          height: len(s.height),
          weight: wt(s.weight),
          upright: s.upright,
        })),
      };
      const items = r.skus.map((_, i) => {
        const [q, fractional, po] = r.quantities[i]!;
        return line(`S${i}`, fractional ? `${q - 1}.500000` : q, po, String(i + 1));
      });
      if (r.ghost) items.push(line('NO-SUCH-SKU', 3));
      const payload: SubmitOrderPayload = order({
        order_items: items,
        pre_builts: r.preBuilts.map((b, i) =>
          preBuilt(`PB${i}`, len(b.l), len(b.w), len(b.h), wt(b.weight), b.count, {
            double_stacked_bottom: b.flags.double_stacked_bottom,
            double_stacked_top: b.flags.double_stacked_top,
            rotation_x: b.flags.rotation_x,
          }),
        ),
        loose_boxes: r.loose.map((b, i) => looseBox(`LB${i}`, len(b.l), len(b.w), len(b.h), wt(b.weight), b.count, b.flags)),
        order_containers: r.containers.map((code, i) => ({ code, count: r.counts[i]! })),
      });
      if (payload.order_items.length + payload.pre_builts.length + payload.loose_boxes.length === 0) return;
      const plan = planChecked(t, { lane, order: payload, seed: r.seed }, 300);
      t.same(
        leftWithRoom(plan, payload, LENGTH_PER_CM[r.length] / 10, WEIGHT_PER_KG[r.weight] / 1000),
        [],
        'nothing left behind while a listed container that holds it is unused',
      );
      return plan.pallets.every((x) => x.units.length > 0);
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

t.test('every single-container packing of a random BR-style instance passes the validator', async (t) => {
  const wasm = new PlannerWasm();
  const boxType = fc.record({
    dims: fc.tuple(fc.integer({ min: 10, max: 120 }), fc.integer({ min: 10, max: 120 }), fc.integer({ min: 10, max: 120 })),
    verticalOk: fc.tuple(fc.boolean(), fc.boolean(), fc.constant(true)),
    count: fc.integer({ min: 1, max: 40 }),
  });
  fc.assert(
    fc.property(fc.array(boxType, { minLength: 1, maxLength: 12 }), fc.integer({ min: 150, max: 600 }), (types, length) => {
      const instance = { instance: 1, container: { l: length, w: 233, h: 220 }, types: types.map((x, i) => ({ id: i + 1, ...x })) };
      const { placements } = packContainer(wasm, instance, { timeLimitMs: 5000, effort: 500 });
      t.same(validateBrPacking(instance, placements), []);
    }),
    { seed: SEED, numRuns: RUNS },
  );
});
