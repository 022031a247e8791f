// The one way from a submitted order and its lane to the planner's input (src/plan-contract/
// planner-input.ts): lane units become whole millimetres and grams exactly (units.ts), cargo
// rounded up, limits down, and order quantities whole units. The planning and the consolidation
// reactors, the tests and the benchmarks all plan from what this returns.
import type { LaneDocument, PalletTypeDocument } from '../master-data/master-data-document.js';
import type { SubmitOrderPayload } from '../orders/submit-order-payload.js';
import type { ItemMm, PalletTypeMm, PlanOrderInput, TogetherInput } from '../plan-contract/planner-input.js';
import { lengthToMm, weightToG, wholeUnits } from './units.js';

/** An order as submitted with its lane; optionally the pallet type to use and the search seed. */
export interface LaneOrder {
  lane: LaneDocument;
  order: SubmitOrderPayload;
  palletCode?: string;
  seed?: number;
}

export function palletTypeMm(lane: LaneDocument, p: PalletTypeDocument): PalletTypeMm {
  const { length: lu, weight: wu } = lane.units;
  const h = lengthToMm(p.height, lu, 'up');
  const weightG = weightToG(p.weight, wu, 'up');
  return {
    code: p.code,
    l: lengthToMm(p.length, lu, 'down'),
    w: lengthToMm(p.width, lu, 'down'),
    h,
    weightG,
    loadHeight: lengthToMm(p.max_height, lu, 'down') - h,
    loadWeightG: weightToG(p.max_weight, wu, 'down') - weightG,
  };
}

export function plannerInput({ lane, order, palletCode, seed }: LaneOrder): PlanOrderInput {
  const { length: lu, weight: wu } = lane.units;
  const mm = (v: string | number): number => lengthToMm(v, lu, 'up');
  const g = (v: string | number): number => weightToG(v, wu, 'up');
  // A pre-built pallet and a loose box are the same piece of cargo to the planner; a loose box may also
  // turn on its other two axes.
  const piece = (b: Omit<SubmitOrderPayload['pre_builts'][number], 'prebuiltitem_set'>) => ({
    name: b.name,
    l: mm(b.length),
    w: mm(b.width),
    h: mm(b.height),
    weightG: g(b.weight),
    count: b.count,
    double_stacked_bottom: b.double_stacked_bottom,
    double_stacked_top: b.double_stacked_top,
    rotation_x: b.rotation_x,
  });
  // only the items the order names: the lane may list thousands, and the input goes to a worker
  const named = new Set(order.order_items.map((line) => line.item));
  const items: ItemMm[] = lane.items
    .filter((it) => named.has(it.sku))
    .map((it) => ({ sku: it.sku, l: mm(it.length), w: mm(it.width), h: mm(it.height), weightG: g(it.weight), upright: it.upright }));
  return {
    palletTypes: lane.pallet_types.map((p) => palletTypeMm(lane, p)),
    items,
    lines: order.order_items.map((line) => ({
      sku: line.item,
      purchase_order: line.purchase_order,
      line_item_number: line.line_item_number,
      units: wholeUnits(line.quantity),
    })),
    preBuilts: order.pre_builts.map(piece),
    looseBoxes: order.loose_boxes.map((b) => ({ ...piece(b), rotation_y: b.rotation_y, rotation_z: b.rotation_z })),
    containers: order.order_containers.map((c) => ({ code: c.code, count: c.count, ...(c.exact ? { exact: c.exact } : {}) })),
    ...(palletCode === undefined ? {} : { palletCode }),
    ...(seed === undefined ? {} : { seed }),
  };
}

/** Orders of one consolidation on one lane (the lane with every SKU any of them names). */
export function togetherInput(lane: LaneDocument, orders: readonly { service_ref: string; order: SubmitOrderPayload }[]): TogetherInput {
  return { orders: orders.map(({ service_ref, order }) => ({ service_ref, input: plannerInput({ lane, order }) })) };
}
