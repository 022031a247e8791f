// The one way from a submitted order and its lane to the planner's input (src/plan-contract/
// planner-input.ts): lane units become whole millimetres and grams exactly (units.ts), cargo
// rounded up, limits down, and order quantities whole units. The planning and the consolidation
// reactors, the tests and the benchmarks all plan from what this returns.
import type { ItemDocument, LaneDocument, PalletTypeDocument } from '../master-data/master-data-document.js';
import type { SubmitOrderPayload } from '../orders/submit-order-payload.js';
import type { ItemMm, PalletTypeMm, PlanOrderInput, RoadChassisMm, RoadMm, TogetherInput } from '../plan-contract/planner-input.js';
import { roadProfileNumbers } from '../plan-contract/road-profile.js';
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
    .map((it) => ({
      sku: it.sku,
      l: mm(it.length),
      w: mm(it.width),
      h: mm(it.height),
      weightG: g(it.weight),
      upright: it.upright,
      ...maxLoad(it, lane),
    }));
  const road = roadOf(lane, order.transportation_mode);
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
    looseBoxes: order.loose_boxes.map((b) => ({ ...piece(b), rotation_y: b.rotation_y, rotation_z: b.rotation_z, ...maxLoad(b, lane) })),
    containers: order.order_containers.map((c) => ({ code: c.code, count: c.count, ...(c.exact ? { exact: c.exact } : {}) })),
    ...(road === undefined ? {} : { road }),
    ...(palletCode === undefined ? {} : { palletCode }),
    ...(seed === undefined ? {} : { seed }),
  };
}

/** What one unit may carry above it, in grams rounded down (a limit never grows); stackable false: nothing. */
function maxLoad(it: Pick<ItemDocument, 'stackable'> & { max_load_on_top?: string | number }, lane: LaneDocument): { maxLoadG?: number } {
  if (it.stackable === false) return { maxLoadG: 0 };
  return it.max_load_on_top === undefined ? {} : { maxLoadG: weightToG(it.max_load_on_top, lane.units.weight, 'down') };
}

/** The lane's road profile in grams and whole millimetres, when it holds this order's mode to it. */
function roadOf(lane: LaneDocument, mode: string): RoadMm | undefined {
  if (lane.road_profile === undefined || !(lane.road_profile_modes ?? ['TruckFTL']).includes(mode as 'TruckFTL')) return undefined;
  const { profile, numbers } = roadProfileNumbers(lane.road_profile);
  const tare = (kg: number) => weightToG(kg, 'kg', 'up');
  const limit = (kg: number) => weightToG(kg, 'kg', 'down');
  const at = (v: number) => Math.round(v);
  const t = numbers.tractor;
  const chassis: RoadMm['chassis'] = {};
  for (const [cls, c] of Object.entries(numbers.chassis) as [keyof RoadMm['chassis'], NonNullable<(typeof numbers.chassis)['20ft']>][]) {
    chassis[cls] = {
      tareG: tare(c.tare_kg),
      tareCogMm: at(c.tare_cog_mm),
      kingpinMm: at(c.kingpin_mm),
      axleGroupMm: at(c.axle_group_mm),
      axleGroupLimitG: limit(c.axle_group_limit_kg),
      grossLimitG: limit(c.gross_limit_kg),
    } satisfies RoadChassisMm;
  }
  return {
    profile,
    tractor: {
      steerTareG: tare(t.steer_tare_kg),
      driveTareG: tare(t.drive_tare_kg),
      wheelbaseMm: at(t.wheelbase_mm),
      fifthWheelMm: at(t.fifth_wheel_mm),
      steerLimitG: limit(t.steer_limit_kg),
      driveLimitG: limit(t.drive_limit_kg),
      driveMinShare: t.drive_min_share ?? 0,
    },
    chassis,
  };
}

/** Orders of one consolidation on one lane (the lane with every SKU any of them names). */
export function togetherInput(lane: LaneDocument, orders: readonly { service_ref: string; order: SubmitOrderPayload }[]): TogetherInput {
  return { orders: orders.map(({ service_ref, order }) => ({ service_ref, input: plannerInput({ lane, order }) })) };
}
