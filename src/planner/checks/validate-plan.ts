// An independent check of an order plan against its input: every rule of the load planner,
// with its own unit conversion (floating point with a tolerance) and geometry
// (validator-geometry.ts), nothing shared with the WebAssembly planner or its wrapper.
import { CONTAINER_CATALOG } from '../containers.js';
import type { ContainerPlacement, OrderPlan, PlannedContainer, PlannedPallet } from '../../plan-contract/plan-types.js';
import type { LooseBoxRow, SubmittedCargo } from './submitted-cargo.js';
import { boxesOverlap, containsFootprint, type PlacedBox, supportedArea, supportersOf } from './validator-geometry.js';
import { checkBearing } from './validate-bearing.js';
import { checkRoad } from './validate-road.js';

const EPS = 1e-6;
const MM_PER: Record<string, number> = { mm: 1, cm: 10, in: 25.4 };
const G_PER: Record<string, number> = { kg: 1000, lb: 453.59237 };

/** A planner size is the true size rounded up to whole millimetres (grams). */
const roundedUpFrom = (planned: number, exact: number): boolean => planned >= exact - EPS && planned < exact + 1 + EPS;

function matchesOneOf(placed: [number, number, number], options: [number, number, number][]): boolean {
  return options.some((o) => o.every((v, k) => roundedUpFrom(placed[k]!, v)));
}

export function validatePlan(input: SubmittedCargo, plan: OrderPlan): string[] {
  const v: string[] = [];
  const mm = MM_PER[input.lane.units.length]!;
  const g = G_PER[input.lane.units.weight]!;
  checkPallets(input, plan, mm, g, v);
  checkContainers(input, plan, mm, g, v);
  checkRoad(input, plan.containers, v);
  checkBearing(input, plan, g, v);
  checkCounts(input, plan, v);
  if (plan.metrics.pallet_count !== plan.pallets.length) v.push('metrics.pallet_count differs from the pallets');
  if (plan.metrics.container_count !== plan.containers.length) v.push('metrics.container_count differs from the containers');
  const notJson = firstNonJson(plan, 'plan');
  if (notJson) v.push(`${notJson} does not survive JSON (the plan is stored in an event)`);
  return v;
}

/** The path of the first value JSON would drop or change: NaN, Infinity, undefined, a bigint, a function. */
function firstNonJson(value: unknown, path: string): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = firstNonJson(value[i], `${path}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (typeof value === 'object') {
    for (const [k, x] of Object.entries(value)) {
      const bad = firstNonJson(x, `${path}.${k}`);
      if (bad) return bad;
    }
    return undefined;
  }
  return path;
}

function checkPallets(input: SubmittedCargo, plan: OrderPlan, mm: number, g: number, v: string[]): void {
  const lane = input.lane;
  const types = new Map(lane.pallet_types.map((p) => [p.code, p]));
  const items = new Map(lane.items.map((i) => [i.sku, i]));
  plan.pallets.forEach((p, k) => {
    const at = `${p.pallet_index}`;
    if (p.pallet_index !== `AP${k + 1}`) v.push(`pallet ${k}: index ${p.pallet_index}, expected AP${k + 1}`);
    const type = types.get(p.pallet_code);
    if (!type) {
      v.push(`${at}: pallet code ${p.pallet_code} is no pallet type of the lane`);
      return;
    }
    if (input.palletCode !== undefined && p.pallet_code !== input.palletCode)
      v.push(`${at}: pallet code ${p.pallet_code}, the input asked for ${input.palletCode}`);
    const deckL = type.length * mm,
      deckW = type.width * mm,
      palletH = type.height * mm;
    if (p.units.length === 0) v.push(`${at}: no units`);
    let top = 0;
    let unitWeight = 0;
    p.units.forEach((u, i) => {
      const where = `${at} unit ${i} (${u.sku} at ${u.x},${u.y},${u.z})`;
      const item = items.get(u.sku);
      if (!item) {
        v.push(`${where}: no item master data`);
        return;
      }
      unitWeight += item.weight * g;
      top = Math.max(top, u.z + u.h);
      if (u.x < 0 || u.y < 0 || u.z < 0 || u.x + u.l > deckL + EPS || u.y + u.w > deckW + EPS) v.push(`${where}: overhangs the deck`);
      const [L, W, H] = [item.length * mm, item.width * mm, item.height * mm];
      const options: [number, number, number][] = item.upright
        ? [
            [L, W, H],
            [W, L, H],
          ]
        : [
            [L, W, H],
            [W, L, H],
            [L, H, W],
            [H, L, W],
            [W, H, L],
            [H, W, L],
          ];
      if (!matchesOneOf([u.l, u.w, u.h], options)) v.push(`${where}: sizes ${u.l}x${u.w}x${u.h} are no allowed orientation of the item`);
    });
    checkBoxes(at, p.units, v);
    if (palletH + top > type.max_height * mm + EPS) v.push(`${at}: ${palletH + top} mm high, over max_height of ${type.code}`);
    if (!roundedUpFrom(p.height_mm, palletH + top)) v.push(`${at}: height_mm ${p.height_mm}, computed ${palletH + top}`);
    const weight = type.weight * g + unitWeight;
    if (weight > type.max_weight * g + EPS) v.push(`${at}: ${weight} g, over max_weight of ${type.code}`);
    if (p.weight_g < weight - EPS || p.weight_g > weight + p.units.length + 1 + EPS)
      v.push(`${at}: weight_g ${p.weight_g}, computed ${weight}`);
    if (Math.abs(p.length_mm - deckL) >= 1 || Math.abs(p.width_mm - deckW) >= 1)
      v.push(`${at}: deck ${p.length_mm}x${p.width_mm}, expected ${deckL}x${deckW}`);
    checkContents(p, v);
    checkLayers(at, p, v);
  });
}

/** Layers list every unit once, each at its layer's base, bottom layer first. */
function checkLayers(at: string, p: PlannedPallet, v: string[]): void {
  const inLayers = p.layers.flatMap((l) => l.unit_indexes);
  if (inLayers.length !== p.units.length || new Set(inLayers).size !== p.units.length) v.push(`${at}: layers do not list every unit once`);
  p.layers.forEach((layer, k) => {
    if (k > 0 && layer.z <= p.layers[k - 1]!.z) v.push(`${at}: layer ${k + 1} is not above layer ${k}`);
    for (const i of layer.unit_indexes) {
      const u = p.units[i];
      if (u?.z !== layer.z) v.push(`${at}: unit ${i} is not at its layer's height ${layer.z}`);
      else if (u.h > layer.height) v.push(`${at}: unit ${i} is taller than its layer (${layer.height} mm)`);
    }
  });
}

function checkContents(p: PlannedPallet, v: string[]): void {
  const counted = new Map<string, number>();
  for (const u of p.units) {
    const key = JSON.stringify([u.sku, u.purchase_order, u.line_item_number]);
    counted.set(key, (counted.get(key) ?? 0) + 1);
  }
  const listed = new Map<string, number>();
  for (const c of p.contents) {
    const key = JSON.stringify([c.sku, c.purchase_order, c.line_item_number]);
    if (listed.has(key)) v.push(`${p.pallet_index}: contents list ${key} twice`);
    listed.set(key, c.quantity);
  }
  for (const [key, n] of counted)
    if (listed.get(key) !== n) v.push(`${p.pallet_index}: contents say ${listed.get(key) ?? 0} of ${key}, the pallet holds ${n}`);
  for (const key of listed.keys()) if (!counted.has(key)) v.push(`${p.pallet_index}: contents list ${key}, not on the pallet`);
}

/** No two boxes overlap; each stands on the floor or wholly on tops directly below it. */
function checkBoxes(at: string, boxes: readonly PlacedBox[], v: string[]): void {
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) if (boxesOverlap(boxes[i]!, boxes[j]!)) v.push(`${at}: boxes ${i} and ${j} overlap`);
  }
  boxes.forEach((b, i) => {
    if (b.z !== 0 && supportedArea(b, boxes) !== b.l * b.w) v.push(`${at}: box ${i} at ${b.x},${b.y},${b.z} not fully supported`);
  });
}

interface CargoFacts {
  kind: ContainerPlacement['kind'];
  dims: [number, number, number][];
  weightG: number;
  /** Exact weight when the planner rounds it (pre-builts, loose boxes). */
  exactWeightG?: number;
  bottom: boolean;
  top: boolean;
}

/** Spec 2.6 as the planner reads it: x spins on the floor, y stands it on its length, z on its width. */
function looseOptions(b: LooseBoxRow, L: number, W: number, H: number): [number, number, number][] {
  const o: [number, number, number][] = [[L, W, H]];
  if (b.rotation_x) o.push([W, L, H]);
  if (b.rotation_z) o.push([L, H, W], ...(b.rotation_x ? [[H, L, W] as [number, number, number]] : []));
  if (b.rotation_y) o.push([H, W, L], ...(b.rotation_x ? [[W, H, L] as [number, number, number]] : []));
  return o;
}

function cargoFacts(input: SubmittedCargo, plan: OrderPlan, mm: number, g: number): Map<string, CargoFacts> {
  const facts = new Map<string, CargoFacts>();
  for (const p of plan.pallets) {
    facts.set(`pallet:${p.pallet_index}`, {
      kind: 'pallet',
      dims: [
        [p.length_mm, p.width_mm, p.height_mm],
        [p.width_mm, p.length_mm, p.height_mm],
      ],
      weightG: p.weight_g,
      bottom: false,
      top: false,
    });
  }
  const numbered = new Map<string, number>();
  const nextNumber = (key: string): number => {
    const k = (numbered.get(key) ?? 0) + 1;
    numbered.set(key, k);
    return k;
  };
  for (const b of input.order.pre_builts) {
    const [L, W, H] = [Number(b.length) * mm, Number(b.width) * mm, Number(b.height) * mm];
    for (let i = 0; i < b.count; i++) {
      facts.set(`pre_built:${b.name} #${nextNumber(`pre_built:${b.name}`)}`, {
        kind: 'pre_built',
        dims: b.rotation_x
          ? [
              [L, W, H],
              [W, L, H],
            ]
          : [[L, W, H]],
        weightG: NaN,
        exactWeightG: Number(b.weight) * g,
        bottom: b.double_stacked_bottom,
        top: b.double_stacked_top,
      });
    }
  }
  for (const b of input.order.loose_boxes) {
    const [L, W, H] = [Number(b.length) * mm, Number(b.width) * mm, Number(b.height) * mm];
    for (let i = 0; i < b.count; i++) {
      facts.set(`loose_box:${b.name} #${nextNumber(`loose_box:${b.name}`)}`, {
        kind: 'loose_box',
        dims: looseOptions(b, L, W, H),
        weightG: NaN,
        exactWeightG: Number(b.weight) * g,
        bottom: b.double_stacked_bottom,
        top: b.double_stacked_top,
      });
    }
  }
  return facts;
}

function checkContainers(input: SubmittedCargo, plan: OrderPlan, mm: number, g: number, v: string[]): void {
  const facts = cargoFacts(input, plan, mm, g);
  const used = new Map<string, number>();
  const seen = new Set<string>();
  plan.containers.forEach((c, k) => {
    const at = `container ${c.index} (${c.code})`;
    if (c.index !== k + 1) v.push(`${at}: index ${c.index}, expected ${k + 1}`);
    used.set(c.code, (used.get(c.code) ?? 0) + 1);
    const spec = (CONTAINER_CATALOG as Record<string, (typeof CONTAINER_CATALOG)['20ft'] | undefined>)[c.code];
    if (!spec) {
      v.push(`${at}: unknown container code`);
      return;
    }
    if (
      c.inner_mm.l !== spec.inner_mm.l ||
      c.inner_mm.w !== spec.inner_mm.w ||
      c.inner_mm.h !== spec.inner_mm.h ||
      c.payload_g !== spec.payload_kg * 1000
    ) {
      v.push(`${at}: inner size or payload differ from the catalog`);
    }
    let weight = 0;
    let volume = 0;
    c.placements.forEach((p, i) => {
      const where = `${at} ${p.kind} ${p.ref}`;
      const key = `${p.kind}:${p.ref}`;
      if (seen.has(key)) v.push(`${where}: loaded twice`);
      seen.add(key);
      const f = facts.get(key);
      if (!f) {
        v.push(`${where}: not part of the order`);
        return;
      }
      weight += p.weight_g;
      volume += p.l * p.w * p.h;
      if (p.x < 0 || p.y < 0 || p.z < 0 || p.x + p.l > c.inner_mm.l || p.y + p.w > c.inner_mm.w || p.z + p.h > c.inner_mm.h)
        v.push(`${where}: outside the container`);
      const dimsOk =
        f.kind === 'pallet' ? f.dims.some((d) => d[0] === p.l && d[1] === p.w && d[2] === p.h) : matchesOneOf([p.l, p.w, p.h], f.dims);
      if (!dimsOk) v.push(`${where}: sizes ${p.l}x${p.w}x${p.h} are no allowed orientation`);
      const weightOk = f.exactWeightG === undefined ? p.weight_g === f.weightG : roundedUpFrom(p.weight_g, f.exactWeightG);
      if (!weightOk) v.push(`${where}: weight ${p.weight_g} g differs from the order's`);
      if (p.z > 0) checkStacking(where, p, f, c.placements, facts, v);
      if (i > 0 && c.placements[i - 1]!.loading_order >= p.loading_order) v.push(`${at}: placements not listed in loading order`);
    });
    checkBoxes(at, c.placements, v);
    const orders = c.placements.map((p) => p.loading_order).sort((a, b) => a - b);
    if (orders.some((o, i) => o !== i + 1)) v.push(`${at}: loading order is not 1..${c.placements.length}`);
    for (const p of c.placements) {
      for (const s of supportersOf(p, c.placements)) {
        if ((s as ContainerPlacement).loading_order > p.loading_order)
          v.push(`${at}: ${p.ref} loads before ${(s as ContainerPlacement).ref}, which carries it`);
      }
    }
    if (weight > c.payload_g + EPS) v.push(`${at}: ${weight} g, over the payload ${c.payload_g} g`);
    const innerVolume = c.inner_mm.l * c.inner_mm.w * c.inner_mm.h;
    if (Math.abs(c.volume_utilization - volume / innerVolume) > 1e-9)
      v.push(`${at}: volume_utilization ${c.volume_utilization}, computed ${volume / innerVolume}`);
    if (Math.abs(c.weight_utilization - weight / c.payload_g) > 1e-9)
      v.push(`${at}: weight_utilization ${c.weight_utilization}, computed ${weight / c.payload_g}`);
    checkCenterOfGravity(at, c, v);
  });
  const listed = new Map(input.order.order_containers.map((c) => [c.code as string, c]));
  for (const [code, n] of used) {
    const row = listed.get(code);
    if (row === undefined) v.push(`container code ${code} is not in the order`);
    else if (n > row.count) v.push(`${n} containers of ${code}, the order allows ${row.count}`);
  }
  // a count the order gave is booked: exactly that many, empty ones listed (spec 2.8)
  for (const row of input.order.order_containers) {
    if (row.exact && (used.get(row.code) ?? 0) !== row.count)
      v.push(`${used.get(row.code) ?? 0} containers of ${row.code}, the order booked exactly ${row.count}`);
  }
}

/**
 * The CTU Code's rule (annex 7, 3.1.4): the cargo's centre of gravity within 5 % of the inner length
 * from the middle and 5 % of the inner width from the centreline. A container outside them must say
 * so; its figures must be the placements' own. Computed here apart from center-of-gravity.ts.
 */
function checkCenterOfGravity(at: string, c: PlannedContainer, v: string[]): void {
  let weight = 0;
  const moment = [0, 0, 0];
  for (const p of c.placements) {
    weight += p.weight_g;
    moment[0]! += p.weight_g * (p.x + p.l / 2);
    moment[1]! += p.weight_g * (p.y + p.w / 2);
    moment[2]! += p.weight_g * (p.z + p.h / 2);
  }
  if (c.cargo_weight_g !== weight) v.push(`${at}: cargo_weight_g ${c.cargo_weight_g}, computed ${weight}`);
  if (weight === 0) {
    if (c.center_of_gravity_mm !== null) v.push(`${at}: a centre of gravity without cargo weight`);
    if (!c.within_cog_limits) v.push(`${at}: no cargo weight, yet outside the centre-of-gravity limits`);
    return;
  }
  const [x, y, z] = moment.map((m) => m / weight) as [number, number, number];
  const g = c.center_of_gravity_mm;
  if (!g || Math.abs(g.x - x) > 0.5 + EPS || Math.abs(g.y - y) > 0.5 + EPS || Math.abs(g.z - z) > 0.5 + EPS) {
    v.push(`${at}: centre of gravity ${JSON.stringify(g)}, computed ${x.toFixed(1)}, ${y.toFixed(1)}, ${z.toFixed(1)}`);
  }
  // how far inside the limits (positive) or outside (negative), in millimetres
  const margin = Math.min(c.inner_mm.l * 0.05 - Math.abs(x - c.inner_mm.l / 2), c.inner_mm.w * 0.05 - Math.abs(y - c.inner_mm.w / 2));
  if (c.within_cog_limits && margin < -1e-6)
    v.push(`${at}: says within the centre-of-gravity limits, but is ${(-margin).toFixed(0)} mm outside them`);
  if (!c.within_cog_limits && margin > 1e-6)
    v.push(`${at}: says outside the centre-of-gravity limits, but is ${margin.toFixed(0)} mm inside them`);
}

/** Double stacking: a top-flagged item wholly on one bottom-flagged item of its class on the floor. */
function checkStacking(
  where: string,
  p: ContainerPlacement,
  f: CargoFacts,
  all: readonly ContainerPlacement[],
  facts: Map<string, CargoFacts>,
  v: string[],
): void {
  const under = supportersOf(p, all) as ContainerPlacement[];
  const base = under[0];
  if (under.length !== 1 || !base) {
    v.push(`${where}: stands on ${under.length} items, double stacking needs exactly one`);
    return;
  }
  const bf = facts.get(`${base.kind}:${base.ref}`);
  if (!containsFootprint(base, p)) v.push(`${where}: not wholly on ${base.ref}`);
  if (!f.top) v.push(`${where}: stacked but not double_stacked_top`);
  if (!bf?.bottom) v.push(`${where}: stands on ${base.ref}, which is not double_stacked_bottom`);
  if ((f.kind === 'loose_box') !== (base.kind === 'loose_box')) v.push(`${where}: a ${f.kind} on a ${base.kind}`);
  if (base.z !== 0) v.push(`${where}: a third tier (its base ${base.ref} is not on the floor)`);
}

/** Every unit, pallet, pre-built and loose box is loaded once or reported unplaced. */
function checkCounts(input: SubmittedCargo, plan: OrderPlan, v: string[]): void {
  const ordered = new Map<string, number>();
  const perLine = new Map<string, number>();
  for (const it of input.order.order_items) {
    const units = Math.ceil(Number(it.quantity) - EPS);
    ordered.set(it.item, (ordered.get(it.item) ?? 0) + units);
    const key = JSON.stringify([it.item, it.purchase_order, it.line_item_number]);
    perLine.set(key, (perLine.get(key) ?? 0) + units);
  }
  const onPallets = new Map<string, number>();
  const onLines = new Map<string, number>();
  for (const p of plan.pallets) {
    for (const u of p.units) {
      onPallets.set(u.sku, (onPallets.get(u.sku) ?? 0) + 1);
      const key = JSON.stringify([u.sku, u.purchase_order, u.line_item_number]);
      onLines.set(key, (onLines.get(key) ?? 0) + 1);
    }
  }
  for (const [key, n] of onLines)
    if (n > (perLine.get(key) ?? 0)) v.push(`${n} units of ${key} on pallets, the order has ${perLine.get(key) ?? 0}`);
  const unplacedUnits = new Map<string, number>();
  for (const u of plan.unplaced) if (u.kind === 'unit') unplacedUnits.set(u.ref, (unplacedUnits.get(u.ref) ?? 0) + u.count);
  for (const [sku, n] of ordered) {
    const got = (onPallets.get(sku) ?? 0) + (unplacedUnits.get(sku) ?? 0);
    if (got !== n) v.push(`SKU ${sku}: ${n} units ordered, ${got} on pallets or unplaced`);
  }
  const loaded = new Map<string, number>();
  for (const c of plan.containers)
    for (const p of c.placements) {
      const row = p.kind === 'pallet' ? p.ref : p.ref.replace(/ #\d+$/, '');
      loaded.set(`${p.kind}:${row}`, (loaded.get(`${p.kind}:${row}`) ?? 0) + 1);
    }
  const unplaced = new Map<string, number>();
  for (const u of plan.unplaced)
    if (u.kind !== 'unit') unplaced.set(`${u.kind}:${u.ref}`, (unplaced.get(`${u.kind}:${u.ref}`) ?? 0) + u.count);
  const expect = (key: string, n: number): void => {
    const got = (loaded.get(key) ?? 0) + (unplaced.get(key) ?? 0);
    if (got !== n) v.push(`${key}: ${n} in the order, ${got} loaded or unplaced`);
  };
  for (const p of plan.pallets) expect(`pallet:${p.pallet_index}`, 1);
  const rows = new Map<string, number>();
  for (const b of input.order.pre_builts) rows.set(`pre_built:${b.name}`, (rows.get(`pre_built:${b.name}`) ?? 0) + b.count);
  for (const b of input.order.loose_boxes) rows.set(`loose_box:${b.name}`, (rows.get(`loose_box:${b.name}`) ?? 0) + b.count);
  for (const [key, n] of rows) expect(key, n);
  const reasons = new Set([
    'too_large_for_every_type',
    'out_of_containers',
    'over_payload',
    'over_road_gross',
    'over_axle_limits',
    'no_item_master_data',
    'no_pallet_type',
    'too_large_for_pallet',
    'over_pallet_max_weight',
  ]);
  for (const u of plan.unplaced)
    if (!reasons.has(u.reason) || !(u.count > 0)) v.push(`unplaced ${u.kind} ${u.ref}: reason ${u.reason}, count ${u.count}`);
}
