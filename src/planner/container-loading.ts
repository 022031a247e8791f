// Loading the order's pallets, pre-built pallets and loose boxes into its containers: the cargo as the
// planner's loadContainers job takes it (assembly/load-containers.ts), booked containers first, and its
// answer as the plan's containers, each placement numbered and in loading order.
import type { CargoRowMm, ContainerRow, LooseBoxMm, RoadMm } from '../plan-contract/planner-input.js';
import { balanceSlabs } from './balance-slabs.js';
import { containerCogFigures } from './container-cog.js';
import { type ContainerSpec, containerSpec } from './containers.js';
import {
  axleLoads,
  cargoMoment,
  type ContainerRoadSpec,
  containerRoad,
  containerRoadSpec,
  roadOnWire,
  withinRoadLimits,
} from './road-loads.js';
import { roadReasonDetail } from './road-reasons.js';
import { loadingOrder } from './loading-order.js';
import type { PlannerWasm } from './planner-wasm.js';
import type {
  ContainerPlacement,
  PlacementKind,
  PlanLimits,
  PlannedContainer,
  PlannedPallet,
  Unplaced,
  UnplacedReason,
} from '../plan-contract/plan-types.js';
import {
  type BoxType,
  FIXED_ORIENTATION,
  LOAD_REASONS,
  readLoadContainersAnswer,
  StackPolicy,
  UPRIGHT_ORIENTATIONS,
  writeLoadContainersInput,
} from './wasm-wire.js';

/** Stack classes: a pallet only ever stands on a pallet, a carton on a carton. */
const PALLET_CLASS = 0;
const CARTON_CLASS = 1;

interface CargoGroup {
  kind: PlacementKind;
  /** The row name (pre-builts, loose boxes) or the first pallet's index. */
  name: string;
  refs: string[];
  wire: BoxType;
}

/**
 * Spec 2.6: rotation_x spins the box on the floor; rotation_y lets it tilt onto its length
 * (length vertical), rotation_z onto its width. All false: as submitted; all true: any.
 */
export function looseBoxOrientations(b: Pick<LooseBoxMm, 'rotation_x' | 'rotation_y' | 'rotation_z'>): number {
  const spin = b.rotation_x;
  return (
    0b000001 |
    (spin ? 0b000010 : 0) |
    (b.rotation_z ? 0b000100 | (spin ? 0b001000 : 0) : 0) |
    (b.rotation_y ? 0b100000 | (spin ? 0b010000 : 0) : 0)
  );
}

function stacking(bottom: boolean, top: boolean, stackClass: number): Pick<BoxType, 'policy' | 'canTop' | 'stackClass'> {
  return { policy: bottom ? StackPolicy.Base : StackPolicy.None, canTop: top, stackClass };
}

/**
 * The refs of each row's items, "<name> #k": rows sharing a name number their items on from the
 * earlier row's, so every ref of one kind is unique.
 */
export function rowRefs(rows: readonly { name: string; count: number }[]): string[][] {
  const numbered = new Map<string, number>();
  return rows.map(({ name, count }) => {
    const first = numbered.get(name) ?? 0;
    numbered.set(name, first + count);
    return Array.from({ length: count }, (_, k) => `${name} #${first + k + 1}`);
  });
}

function cargoGroups(pallets: readonly PlannedPallet[], preBuilts: readonly CargoRowMm[], looseBoxes: readonly LooseBoxMm[]): CargoGroup[] {
  const groups: CargoGroup[] = [];
  const preBuiltRefs = rowRefs(preBuilts);
  const looseBoxRefs = rowRefs(looseBoxes);
  // identical pallets make one type, so the search can treat them as interchangeable
  const palletGroups = new Map<string, CargoGroup>();
  for (const p of pallets) {
    const key = `${p.length_mm}x${p.width_mm}x${p.height_mm}x${p.weight_g}`;
    let g = palletGroups.get(key);
    if (!g) {
      g = {
        kind: 'pallet',
        name: p.pallet_index,
        refs: [],
        wire: {
          l: p.length_mm,
          w: p.width_mm,
          h: p.height_mm,
          weightG: p.weight_g,
          count: 0,
          orientations: UPRIGHT_ORIENTATIONS,
          ...stacking(false, false, PALLET_CLASS),
        },
      };
      palletGroups.set(key, g);
      groups.push(g);
    }
    g.refs.push(p.pallet_index);
    g.wire.count++;
  }
  for (const [i, b] of preBuilts.entries()) {
    groups.push({
      kind: 'pre_built',
      name: b.name,
      refs: preBuiltRefs[i]!,
      wire: {
        l: b.l,
        w: b.w,
        h: b.h,
        weightG: b.weightG,
        count: b.count,
        orientations: b.rotation_x ? UPRIGHT_ORIENTATIONS : FIXED_ORIENTATION,
        ...stacking(b.double_stacked_bottom, b.double_stacked_top, PALLET_CLASS),
      },
    });
  }
  for (const [i, b] of looseBoxes.entries()) {
    groups.push({
      kind: 'loose_box',
      name: b.name,
      refs: looseBoxRefs[i]!,
      wire: {
        l: b.l,
        w: b.w,
        h: b.h,
        weightG: b.weightG,
        count: b.count,
        orientations: looseBoxOrientations(b),
        ...stacking(b.double_stacked_bottom, b.double_stacked_top, CARTON_CLASS),
        ...(b.maxLoadG === undefined ? {} : { maxLoadG: b.maxLoadG }),
      },
    });
  }
  return groups;
}

/** The loader's reason by its code (wasm-wire.ts LOAD_REASONS); undefined for one that fits. */
function loadReason(code: number): UnplacedReason | undefined {
  const reason = LOAD_REASONS[code];
  return reason === 'fits' ? undefined : reason;
}

export interface LoadResult {
  containers: PlannedContainer[];
  unplaced: Unplaced[];
  timeLimited: boolean;
}

/** What goes into the containers, and the road they travel (absent: none). */
export interface ContainerCargo {
  containers: readonly ContainerRow[];
  pallets: readonly PlannedPallet[];
  preBuilts: readonly CargoRowMm[];
  looseBoxes: readonly LooseBoxMm[];
  road?: RoadMm | undefined;
}

export function loadOrderContainers(wasm: PlannerWasm, cargo: ContainerCargo, limits: PlanLimits, seed: number): LoadResult {
  const { containers: orderContainers, pallets, preBuilts, looseBoxes, road } = cargo;
  const groups = cargoGroups(pallets, preBuilts, looseBoxes);
  const rows = orderContainers.flatMap((c) => {
    const spec = containerSpec(c.code);
    return spec ? [{ spec, count: c.count, booked: c.exact === true, road: road && containerRoadSpec(road, spec) }] : [];
  });
  // Spec 2.8: a row with a count is that many containers booked, used exactly; a row without one
  // offers up to 5, used as needed. The booked ones are loaded first (they are paid for), what they
  // cannot take goes into the others by the usual rule (fewest, then least volume), and a booked
  // container the cargo does not need is listed empty: the plan has exactly the count booked.
  const booked = rows.filter((r) => r.booked);
  const offered = rows.filter((r) => !r.booked);
  const phases = [booked, offered].filter((p) => p.length > 0);
  const state: LoadState = {
    left: groups.map((g) => g.wire.count),
    nextRef: groups.map(() => 0),
    reasons: groups.map(() => undefined),
    timeLimited: false,
  };
  const containers: PlannedContainer[] = [];
  for (const phase of phases) {
    if (state.left.every((n) => n === 0)) break;
    containers.push(...loadPhase(wasm, phase, groups, state, { ...limits, timeLimitMs: limits.timeLimitMs / phases.length }, seed));
  }
  // the booked containers the cargo does not need, after the booked ones it fills
  const empty = booked.flatMap((row) =>
    Array.from({ length: Math.max(0, row.count - containers.filter((c) => c.code === row.spec.code).length) }, () =>
      plannedContainer(row.spec, [], row.road),
    ),
  );
  const bookedLoaded = containers.filter((c) => booked.some((r) => r.spec.code === c.code)).length;
  containers.splice(bookedLoaded, 0, ...empty);
  containers.forEach((c, k) => {
    c.index = k + 1;
  });
  const unplaced: Unplaced[] = [];
  groups.forEach((g, t) => {
    const left = state.left[t]!;
    if (left <= 0) return;
    const reason = state.reasons[t] ?? 'out_of_containers';
    const refs = g.refs.slice(state.nextRef[t]);
    const detail = roadReasonDetail(reason, g.wire, rows);
    const why = detail === undefined ? { reason } : { reason, detail };
    if (g.kind === 'pallet') for (const ref of refs) unplaced.push({ kind: 'pallet', ref, count: 1, ...why });
    else unplaced.push({ kind: g.kind, ref: g.name, count: left, ...why });
  });
  return { containers, unplaced, timeLimited: state.timeLimited };
}

/** What is still to load, per cargo group, across the loader's runs. */
interface LoadState {
  left: number[];
  /** The next ref of each group: items are numbered as they go in, run after run. */
  nextRef: number[];
  reasons: (UnplacedReason | undefined)[];
  timeLimited: boolean;
}

type CatalogRow = { spec: ContainerSpec; count: number; road: ContainerRoadSpec | undefined };

/** One run of the loader over some container rows, with what is left of each group. */
function loadPhase(
  wasm: PlannerWasm,
  rows: readonly CatalogRow[],
  groups: readonly CargoGroup[],
  state: LoadState,
  limits: PlanLimits,
  seed: number,
): PlannedContainer[] {
  const input = writeLoadContainersInput({
    limits: { timeLimitMs: Math.max(1, Math.round(limits.timeLimitMs)), effort: limits.effort },
    seed,
    containers: rows.map(({ spec, count, road }) => ({
      l: spec.inner_mm.l,
      w: spec.inner_mm.w,
      h: spec.inner_mm.h,
      payloadG: spec.payload_kg * 1000,
      count,
      road: roadOnWire(road),
    })),
    cargo: groups.map((g, t) => ({ ...g.wire, count: state.left[t]! })),
  });
  const answer = readLoadContainersAnswer(wasm.run('loadContainers', input));
  if (answer.deadlineHit) state.timeLimited = true;
  const containers: PlannedContainer[] = [];
  for (const loaded of answer.containers) {
    const { spec, road } = rows[loaded.type]!;
    const weightOf = (b: { type: number }) => groups[b.type]!.wire.weightG;
    const laid = loaded.boxes;
    // a load outside the centre-of-gravity limits is mended by moving whole slabs (balance-slabs.ts),
    // unless that would take the axles out of the road's limits the loader met
    const mended = balanceSlabs(laid, weightOf, spec.inner_mm);
    const boxes = road === undefined || roadAllows(road, mended, weightOf) || !roadAllows(road, laid, weightOf) ? mended : laid;
    const order = loadingOrder(boxes);
    // refs in loading order: the identical items of a row are numbered as they go in
    const placements: ContainerPlacement[] = boxes
      .map((b, i) => ({ b, loading_order: order[i]! }))
      .sort((p, q) => p.loading_order - q.loading_order)
      .map(({ b, loading_order }) => {
        const g = groups[b.type]!;
        return {
          kind: g.kind,
          ref: g.refs[state.nextRef[b.type]!++]!,
          x: b.x,
          y: b.y,
          z: b.z,
          l: b.l,
          w: b.w,
          h: b.h,
          weight_g: g.wire.weightG,
          loading_order,
        };
      });
    containers.push(plannedContainer(spec, placements, road));
  }
  answer.left.forEach(({ count, reason }, t) => {
    state.left[t] = count;
    state.reasons[t] = loadReason(reason);
  });
  return containers;
}

function plannedContainer(spec: ContainerSpec, placements: ContainerPlacement[], road: ContainerRoadSpec | undefined): PlannedContainer {
  const { l, w, h } = spec.inner_mm;
  const payload_g = spec.payload_kg * 1000;
  return {
    code: spec.code,
    index: 0,
    inner_mm: { l, w, h },
    payload_g,
    placements,
    volume_utilization: placements.reduce((s, p) => s + p.l * p.w * p.h, 0) / (l * w * h),
    weight_utilization: placements.reduce((s, p) => s + p.weight_g, 0) / payload_g,
    ...containerCogFigures(placements, spec.inner_mm),
    ...(road === undefined ? {} : { road: containerRoad(road, placements) }),
  };
}

/** These boxes' axle loads are within the road's limits. */
function roadAllows<B extends { type: number; x: number; l: number }>(
  road: ContainerRoadSpec,
  boxes: readonly B[],
  weightOf: (b: B) => number,
): boolean {
  const { weight, cogX } = cargoMoment(boxes.map((b) => ({ ...b, y: 0, z: 0, w: 0, h: 0, weight_g: weightOf(b) })));
  return withinRoadLimits(road, axleLoads(road, weight, cogX));
}
