// The order families of bench:orders, seeded, each order with its reference from first principles
// (reference-plans.ts): one SKU, identical pre-built pallets, heavy/light mixes, mixed orders.
import type { ItemDocument, LaneDocument, PalletTypeDocument } from '../../src/master-data/master-data-document.js';
import type {
  ContainerCode,
  LooseBox,
  OrderContainer,
  OrderItem,
  PreBuilt,
  SubmitOrderPayload,
} from '../../src/orders/submit-order-payload.js';
import { CONTAINER_CATALOG } from '../../src/planner/containers.js';
import type { LaneOrder } from '../../src/planning/planner-input.js';
import { containerReference, laneUnits, palletReference, perContainer, type PalletReference, type StackFacts } from './reference-plans.js';
import { prng } from './seeded-orders.js';

export interface Reference {
  /** Pallets the order should need: service-built and pre-built alike. */
  pallets: number;
  containers: number;
  /** false: the reference finds no plan in the listed containers (its figures are then not a target). */
  plan: boolean;
  /** Containers must equal the reference (one SKU, identical pallets) or not exceed it (the others). */
  exact: boolean;
}

export interface BenchOrder {
  family: string;
  name: string;
  input: LaneOrder;
  reference: Reference;
}

export const EUR_CM: PalletTypeDocument = {
  code: 'EUR',
  length: 120,
  width: 80,
  height: 14.4,
  weight: 25,
  max_height: 220,
  max_weight: 1500,
};
export const GMA_CM: PalletTypeDocument = {
  code: 'GMA',
  length: 121.9,
  width: 101.6,
  height: 15,
  weight: 22,
  max_height: 200,
  max_weight: 1200,
};
export const GMA_IN: PalletTypeDocument = { code: 'GMA', length: 48, width: 40, height: 6, weight: 50, max_height: 80, max_weight: 2650 };
export const EUR_IN: PalletTypeDocument = {
  code: 'EUR',
  length: 47.24,
  width: 31.5,
  height: 5.67,
  weight: 55,
  max_height: 86.6,
  max_weight: 3300,
};

function lane(units: LaneDocument['units'], pallet_types: PalletTypeDocument[], items: ItemDocument[]): LaneDocument {
  return {
    id: 1,
    supplier: 'S',
    consignee: 'C',
    transportation_modes: ['OceanFCL'],
    units,
    pallet_types,
    container_codes: ['20ft', '40ft', '40ft-HC', '45ft-HC'],
    items,
  };
}

function order(reference: string, parts: Partial<SubmitOrderPayload>): SubmitOrderPayload {
  return {
    supplier_name: 'S',
    consignee_name: 'C',
    reference,
    transportation_mode: 'OceanFCL',
    shipment_type: 'normal',
    order_items: [],
    pre_builts: [],
    loose_boxes: [],
    order_containers: [],
    customer_notes: null,
    send_email: false,
    extra_recipients: [],
    extra_cc_recipients: [],
    ...parts,
  };
}

const dec = (v: number): string => v.toFixed(6);
const containers = (...codes: [ContainerCode, number?][]): OrderContainer[] => codes.map(([code, count]) => ({ code, count: count ?? 5 }));

function preBuilt(name: string, l: number, w: number, h: number, weight: number, count: number, stacks = false, turnable = true): PreBuilt {
  return {
    name,
    length: dec(l),
    width: dec(w),
    height: dec(h),
    weight: dec(weight),
    count,
    prebuiltitem_set: [],
    double_stacked_bottom: stacks,
    double_stacked_top: stacks,
    rotation_x: turnable,
  };
}

function looseBox(name: string, l: number, w: number, h: number, weight: number, count: number, stacks: boolean): LooseBox {
  return {
    name,
    length: dec(l),
    width: dec(w),
    height: dec(h),
    weight: dec(weight),
    count,
    purchase_order: '',
    line_item_number: '',
    product_quantity: null,
    product_packages: null,
    double_stacked_bottom: stacks,
    double_stacked_top: stacks,
    rotation_x: true,
    rotation_y: false,
    rotation_z: false,
  };
}

function line(sku: string, quantity: number): OrderItem {
  return { item: sku, quantity: dec(quantity), purchase_order: '', line_item_number: '', notes: '' };
}

/** The best pallet type for one SKU: fewest containers, then fewest pallets, then the lane's order. */
function bestPalletFor(
  lane: LaneDocument,
  sku: ItemDocument,
  quantity: number,
  listed: readonly OrderContainer[],
): { pallet: PalletReference; containers: number } | undefined {
  const u = laneUnits(lane);
  const facts = { l: u.mm(sku.length), w: u.mm(sku.width), h: u.mm(sku.height), weightG: u.g(sku.weight), upright: sku.upright };
  let best: { pallet: PalletReference; containers: number } | undefined;
  for (const type of lane.pallet_types) {
    const pallet = palletReference(u, type, facts, quantity);
    if (!pallet) continue;
    const stack: StackFacts = { l: pallet.l, w: pallet.w, h: pallet.h, weightG: pallet.weightG, turnable: true, stacks: false };
    const c = containerReference(listed, pallet.pallets, (code) => perContainer(code, stack));
    const n = c?.containers ?? Infinity;
    if (!best || n < best.containers || (n === best.containers && pallet.pallets < best.pallet.pallets)) best = { pallet, containers: n };
  }
  return best;
}

function oneSku(rnd: () => number, k: number): BenchOrder {
  const between = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const l = between(16, 120) / 2,
    w = between(16, 90) / 2,
    h = between(10, 80) / 2;
  const weight = Math.max(0.2, Math.round(((l * w * h) / 1e6) * between(80, 450) * 10) / 10);
  const sku: ItemDocument = { sku: `ONE-${k}`, length: l, width: w, height: h, weight, upright: rnd() < 0.5 };
  const theLane = lane({ length: 'cm', weight: 'kg' }, rnd() < 0.5 ? [EUR_CM, GMA_CM] : [GMA_CM, EUR_CM], [sku]);
  const quantity = between(100, 6000);
  const listed = containers(['20ft'], ['40ft-HC']);
  const best = bestPalletFor(theLane, sku, quantity, listed);
  return {
    family: 'one SKU',
    name: `${l}x${w}x${h} cm ${weight} kg${sku.upright ? ' upright' : ''} x ${quantity}`,
    input: { lane: theLane, order: order(`one-${k}`, { order_items: [line(sku.sku, quantity)], order_containers: listed }) },
    reference: {
      pallets: best?.pallet.pallets ?? 0,
      containers: best?.containers ?? 0,
      plan: best !== undefined && Number.isFinite(best.containers),
      exact: true,
    },
  };
}

function identical(code: ContainerCode, pallet: 'EUR' | 'GMA', extra: number, stacks: boolean, k: number): BenchOrder {
  const inches = pallet === 'GMA';
  const units: LaneDocument['units'] = inches ? { length: 'in', weight: 'lb' } : { length: 'cm', weight: 'kg' };
  const [l, w] = inches ? [48, 40] : [120, 80];
  const h = stacks ? (inches ? 43 : 110) : inches ? 60 : 150;
  const weight = inches ? 1100 : 500;
  const u = laneUnits(lane(units, [], []));
  const facts: StackFacts = { l: u.mm(l), w: u.mm(w), h: u.mm(h), weightG: u.g(weight), turnable: true, stacks };
  const perOne = perContainer(code, facts);
  const count = perOne + extra;
  const listed = containers([code]);
  const ref = containerReference(listed, count, (c) => perContainer(c, facts));
  return {
    family: 'identical pre-built pallets',
    name: `${count} ${pallet}${stacks ? ' double-stacked' : ''} in ${code}`,
    input: {
      lane: lane(units, [], []),
      order: order(`same-${k}`, { pre_builts: [preBuilt('P', l, w, h, weight, count, stacks)], order_containers: listed }),
    },
    reference: { pallets: count, containers: ref?.containers ?? 0, plan: ref !== undefined, exact: true },
  };
}

function heavyLight(rnd: () => number, k: number, heavy: number, light: number, code: ContainerCode, heavyKg: number): BenchOrder {
  const between = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const lightKg = between(60, 300);
  const listed = containers([code]);
  const facts: StackFacts = { l: 1200, w: 800, h: 1500, weightG: heavyKg * 1000, turnable: true, stacks: false };
  // both kinds share the footprint: the floor bound and the payload bound, whichever is higher
  const spec = CONTAINER_CATALOG[code];
  const byFloor = Math.ceil((heavy + light) / perContainer(code, { ...facts, weightG: 1 }));
  const byWeight = Math.ceil((heavy * heavyKg + light * lightKg) / spec.payload_kg);
  const need = Math.max(byFloor, byWeight);
  return {
    family: 'heavy/light mixes',
    name: `${heavy} x ${heavyKg} kg + ${light} x ${lightKg} kg in ${code}`,
    input: {
      lane: lane({ length: 'cm', weight: 'kg' }, [EUR_CM], []),
      order: order(`mix-${k}`, {
        pre_builts: [preBuilt('HEAVY', 120, 80, 150, heavyKg, heavy), preBuilt('LIGHT', 120, 80, 150, lightKg, light)],
        order_containers: listed,
      }),
    },
    reference: { pallets: heavy + light, containers: need, plan: need <= listed[0]!.count, exact: false },
  };
}

interface Group extends StackFacts {
  count: number;
}

/**
 * A simple plan for a mixed order: each SKU on its own pallets (best type), every group in full-width
 * rows of its own (the better way round, two tiers when it stacks), rows first-fit by depth into the
 * largest listed container type, within its payload. Returns containers, or undefined when it has no plan.
 */
function simpleRowPlan(groups: Group[], listed: readonly OrderContainer[]): number | undefined {
  const type = [...listed].sort((a, b) => {
    const x = CONTAINER_CATALOG[a.code].inner_mm,
      y = CONTAINER_CATALOG[b.code].inner_mm;
    return y.l * y.w * y.h - x.l * x.w * x.h;
  })[0]!;
  const c = CONTAINER_CATALOG[type.code];
  const rows: { depth: number; weight: number }[] = [];
  for (const g of groups) {
    if (g.h > c.inner_mm.h) return undefined;
    const tiers = g.stacks && 2 * g.h <= c.inner_mm.h ? 2 : 1;
    const ways = g.turnable
      ? [
          [g.l, g.w],
          [g.w, g.l],
        ]
      : [[g.l, g.w]];
    let best: { depth: number; per: number } | undefined;
    for (const [depth, across] of ways) {
      const per = Math.floor(c.inner_mm.w / across!) * tiers;
      if (per > 0 && depth! <= c.inner_mm.l && (!best || per / depth! > best.per / best.depth)) best = { depth: depth!, per };
    }
    if (!best) return undefined;
    for (let left = g.count; left > 0; left -= best.per) rows.push({ depth: best.depth, weight: Math.min(left, best.per) * g.weightG });
  }
  rows.sort((a, b) => b.depth - a.depth);
  const bins: { length: number; weight: number }[] = [];
  for (const r of rows) {
    if (r.weight > c.payload_kg * 1000) return undefined;
    const bin = bins.find((b) => b.length + r.depth <= c.inner_mm.l && b.weight + r.weight <= c.payload_kg * 1000);
    if (bin) {
      bin.length += r.depth;
      bin.weight += r.weight;
    } else bins.push({ length: r.depth, weight: r.weight });
  }
  return bins.length <= type.count ? bins.length : undefined;
}

function mixed(rnd: () => number, k: number, inches: boolean): BenchOrder {
  const between = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  // sizes drawn in cm and kg, written in the lane's units
  const len = (cm: number): number => (inches ? Math.round((cm / 2.54) * 100) / 100 : cm);
  const wt = (kg: number): number => (inches ? Math.round((kg / 0.45359237) * 100) / 100 : kg);
  const units: LaneDocument['units'] = inches ? { length: 'in', weight: 'lb' } : { length: 'cm', weight: 'kg' };
  const pallets = inches ? [GMA_IN, EUR_IN] : [EUR_CM, GMA_CM];
  const items: ItemDocument[] = [];
  const lines: OrderItem[] = [];
  for (let i = 0; i < between(1, 4); i++) {
    const l = between(20, 100) / 2,
      w = between(20, 80) / 2,
      h = between(10, 70) / 2;
    const kg = Math.max(0.2, Math.round(((l * w * h) / 1e6) * between(80, 400) * 10) / 10);
    items.push({ sku: `MIX-${k}-${i + 1}`, length: len(l), width: len(w), height: len(h), weight: wt(kg), upright: rnd() < 0.4 });
    lines.push(line(`MIX-${k}-${i + 1}`, between(50, 1500)));
  }
  const preBuilts: PreBuilt[] = [];
  for (let i = 0; i < between(1, 3); i++) {
    const [l, w] = rnd() < 0.6 ? [120, 80] : rnd() < 0.5 ? [120, 100] : [121.9, 101.6];
    const stacks = rnd() < 0.4;
    preBuilts.push(
      preBuilt(
        `PB${i + 1}`,
        len(l),
        len(w),
        len(stacks ? between(80, 120) : between(100, 220)),
        wt(between(150, 900)),
        between(1, 12),
        stacks,
      ),
    );
  }
  const loose: LooseBox[] = [];
  for (let i = 0; i < between(0, 3); i++) {
    const stacks = rnd() < 0.5;
    loose.push(
      looseBox(
        `LB${i + 1}`,
        len(between(40, 120)),
        len(between(30, 100)),
        len(between(30, 110)),
        wt(between(10, 250)),
        between(1, 20),
        stacks,
      ),
    );
  }
  const theLane = lane(units, pallets, items);
  const listed = containers(['20ft'], ['40ft-HC']);
  const u = laneUnits(theLane);
  const groups: Group[] = [];
  let palletCount = 0;
  let plan = true;
  items.forEach((sku, i) => {
    const best = bestPalletFor(theLane, sku, Number(lines[i]!.quantity), listed);
    if (!best) {
      plan = false;
      return;
    }
    palletCount += best.pallet.pallets;
    groups.push({
      count: best.pallet.pallets,
      l: best.pallet.l,
      w: best.pallet.w,
      h: best.pallet.h,
      weightG: best.pallet.weightG,
      turnable: true,
      stacks: false,
    });
  });
  for (const b of preBuilts) {
    palletCount += b.count;
    groups.push({
      count: b.count,
      l: u.mm(b.length),
      w: u.mm(b.width),
      h: u.mm(b.height),
      weightG: u.g(b.weight),
      turnable: b.rotation_x,
      stacks: b.double_stacked_bottom,
    });
  }
  for (const b of loose)
    groups.push({
      count: b.count,
      l: u.mm(b.length),
      w: u.mm(b.width),
      h: u.mm(b.height),
      weightG: u.g(b.weight),
      turnable: b.rotation_x,
      stacks: b.double_stacked_bottom,
    });
  const refContainers = plan ? simpleRowPlan(groups, listed) : undefined;
  return {
    family: `mixed orders, ${inches ? 'in/lb' : 'cm/kg'}`,
    name: `${items.length} SKUs, ${preBuilts.length} pre-built rows, ${loose.length} loose-box rows`,
    input: {
      lane: theLane,
      order: order(`mixed-${k}`, { order_items: lines, pre_builts: preBuilts, loose_boxes: loose, order_containers: listed }),
    },
    reference: { pallets: palletCount, containers: refContainers ?? 0, plan: refContainers !== undefined, exact: false },
  };
}

export function benchOrders(seed: number, perFamily: number): BenchOrder[] {
  const rnd = prng(seed);
  const out: BenchOrder[] = [];
  for (let k = 0; k < perFamily; k++) out.push(oneSku(rnd, k));
  let k = 0;
  for (const code of ['20ft', '40ft', '40ft-HC', '45ft-HC'] as ContainerCode[]) {
    out.push(identical(code, 'EUR', 0, false, k++));
    out.push(identical(code, 'EUR', 3, false, k++));
    if (code !== '45ft-HC') out.push(identical(code, 'GMA', 0, false, k++));
    out.push(identical(code, 'EUR', 0, true, k++));
  }
  out.push(heavyLight(rnd, 0, 8, 12, '40ft', 2000));
  // payload and floor both bind: 30 x 1.4 t and 20 light need two 40ft only if they share them
  out.push(heavyLight(rnd, 100, 30, 20, '40ft', 1400));
  for (let i = 1; i < perFamily; i++) {
    const code = (['20ft', '40ft', '40ft-HC'] as ContainerCode[])[i % 3]!;
    const floor = code === '20ft' ? 11 : 25;
    const heavy = 1 + Math.floor(rnd() * (floor / 2));
    out.push(heavyLight(rnd, i, heavy, Math.max(0, Math.floor(rnd() * (floor - heavy + 1))), code, 1200 + Math.floor(rnd() * 1000)));
  }
  for (let i = 0; i < perFamily; i++) out.push(mixed(rnd, i, false));
  for (let i = 0; i < perFamily; i++) out.push(mixed(rnd, i + perFamily, true));
  return out;
}
