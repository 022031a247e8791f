// The load plan as API clients read it: integer millimetres and kilograms
// whatever the lane's units, container axes x from the front wall (the end opposite the doors),
// y from the left wall, z up from the floor; pallet units from a deck corner, z = 0 at the deck's top.
import { centerOfGravity, withinCogLimits } from '../planner/center-of-gravity.js';
import type {
  AxleFigures,
  ContainerRoad,
  OrderPlan,
  PlacedBox as Box,
  PlacementKind,
  UnplacedReason,
} from '../plan-contract/plan-types.js';

export interface LoadPlanPlacement extends Box {
  kind: PlacementKind;
  ref: string;
  weight_kg: number;
  loading_order: number;
  /** Consolidated shipments only: the order the cargo belongs to. */
  order?: string;
}

export interface LoadPlanContainer {
  code: string;
  index: number;
  inner_mm: { l: number; w: number; h: number };
  payload_kg: number;
  cargo_weight_kg: number;
  /** null for a container that carries nothing. */
  center_of_gravity_mm: { x: number; y: number; z: number } | null;
  within_cog_limits: boolean;
  /** The truck and its axle loads; null where the order is held to no road profile. */
  road: LoadPlanRoad | null;
  placements: LoadPlanPlacement[];
}

export interface LoadPlanRoad {
  profile: string;
  gross_kg: number;
  gross_limit_kg: number;
  axle_loads_kg: AxleFigures;
  axle_limits_kg: AxleFigures;
  drive_min_kg: number;
  kingpin_load_kg: number;
  tare_kg: ContainerRoad['tare_g'];
  geometry_mm: ContainerRoad['geometry_mm'];
  within_road_limits: boolean;
}

export interface LoadPlanPallet {
  ref: string;
  pallet_code: string;
  l: number;
  w: number;
  h: number;
  weight_kg: number;
  units: (Box & { sku: string })[];
}

export interface LoadPlanUnplaced {
  kind: 'unit' | PlacementKind;
  ref: string;
  count: number;
  reason: UnplacedReason;
  /** The road's reasons in a sentence, with the figures. */
  detail?: string;
}

export interface LoadPlan {
  service_ref: string;
  reference: string;
  /** The 3D viewer, opened without an API key through a signed link that expires. */
  viewer_url: string;
  containers: LoadPlanContainer[];
  pallets: LoadPlanPallet[];
  unplaced: LoadPlanUnplaced[];
}

const mm = Math.round;
/** Grams to kilograms, to the gram. */
const kg = (g: number) => Math.round(g) / 1000;
const box = (b: Box): Box => ({ x: mm(b.x), y: mm(b.y), z: mm(b.z), l: mm(b.l), w: mm(b.w), h: mm(b.h) });
const axles = (a: AxleFigures): AxleFigures => ({ steer: kg(a.steer), drive: kg(a.drive), trailer: kg(a.trailer) });

function roadOf(road: ContainerRoad | undefined): LoadPlanRoad | null {
  if (road === undefined) return null;
  const t = road.tare_g;
  return {
    profile: road.profile,
    gross_kg: kg(road.gross_g),
    gross_limit_kg: kg(road.gross_limit_g),
    axle_loads_kg: axles(road.axle_loads_g),
    axle_limits_kg: axles(road.axle_limits_g),
    drive_min_kg: kg(road.drive_min_g),
    kingpin_load_kg: kg(road.kingpin_load_g),
    tare_kg: { tractor_steer: kg(t.tractor_steer), tractor_drive: kg(t.tractor_drive), chassis: kg(t.chassis), container: kg(t.container) },
    geometry_mm: road.geometry_mm,
    within_road_limits: road.within_road_limits,
  };
}

export function loadPlanOf(order: { service_ref: string; reference: string }, plan: OrderPlan, viewerUrl: string): LoadPlan {
  return {
    service_ref: order.service_ref,
    reference: order.reference,
    viewer_url: viewerUrl,
    containers: plan.containers.map((container) => {
      const cog = centerOfGravity(container.placements);
      return {
        code: container.code,
        index: container.index,
        inner_mm: { l: mm(container.inner_mm.l), w: mm(container.inner_mm.w), h: mm(container.inner_mm.h) },
        payload_kg: kg(container.payload_g),
        cargo_weight_kg: kg(cog?.weight_g ?? 0),
        center_of_gravity_mm: cog && { x: mm(cog.x), y: mm(cog.y), z: mm(cog.z) },
        within_cog_limits: withinCogLimits(cog, container.inner_mm),
        road: roadOf(container.road),
        placements: container.placements.map((p) => ({
          kind: p.kind,
          ref: p.ref,
          ...box(p),
          weight_kg: kg(p.weight_g),
          loading_order: p.loading_order,
          ...(p.order !== undefined ? { order: p.order } : {}),
        })),
      };
    }),
    pallets: plan.pallets.map((pallet) => ({
      ref: pallet.pallet_index,
      pallet_code: pallet.pallet_code,
      l: mm(pallet.length_mm),
      w: mm(pallet.width_mm),
      h: mm(pallet.height_mm),
      weight_kg: kg(pallet.weight_g),
      units: pallet.units.map((unit) => ({ sku: unit.sku, ...box(unit) })),
    })),
    unplaced: plan.unplaced.map(({ kind, ref, count, reason, detail }) => ({
      kind,
      ref,
      count,
      reason,
      ...(detail === undefined ? {} : { detail }),
    })),
  };
}
