// The road's lever rule on one container (docs/road-profiles.md), as the plan reports it: the
// chassis rests on the kingpin and its axle group; the kingpin's load rests on the tractor's fifth
// wheel, between its steer axle and its drive axle group (the ROADEF/EURO 2022 challenge's rule).
// The loader in the wasm plans with the same rule (assembly/axle-loads.ts); the validator computes it
// again on its own, and test/planner/road-plans.test.ts holds every road plan to it.
import type { AxleFigures, ContainerRoad, PlacedBox } from '../plan-contract/plan-types.js';
import type { RoadMm } from '../plan-contract/planner-input.js';
import type { ContainerSpec } from './containers.js';
import type { Road } from './wasm-wire.js';

/** A road profile on one container type: every position in the plan's frame (x from the inside of its front wall). */
export interface ContainerRoadSpec {
  profile: string;
  steerTareG: number;
  driveTareG: number;
  wheelbaseMm: number;
  fifthWheelMm: number;
  steerLimitG: number;
  driveLimitG: number;
  driveMinShare: number;
  chassisTareG: number;
  chassisCogX: number;
  kingpinX: number;
  axleGroupX: number;
  axleGroupLimitG: number;
  grossLimitG: number;
  containerTareG: number;
  containerCogX: number;
}

/** The road on a container of this type; undefined when the profile has no chassis for it (master data refuses that). */
export function containerRoadSpec(road: RoadMm, spec: ContainerSpec): ContainerRoadSpec | undefined {
  const c = road.chassis[spec.chassis];
  if (c === undefined) return undefined;
  // the profile measures from the box's outer front face, the plan from the inside of its front wall
  const inside = (outer: number) => outer - spec.front_wall_mm;
  return {
    profile: road.profile,
    ...road.tractor,
    chassisTareG: c.tareG,
    chassisCogX: inside(c.tareCogMm),
    kingpinX: inside(c.kingpinMm),
    axleGroupX: inside(c.axleGroupMm),
    axleGroupLimitG: c.axleGroupLimitG,
    grossLimitG: c.grossLimitG,
    containerTareG: spec.tare_kg * 1000,
    containerCogX: inside(spec.outer_length_mm / 2),
  };
}

/** The most cargo the gross leaves a container of this type (tractor, chassis and box come first), within its payload. */
export function roadCargoRoomG(r: ContainerRoadSpec, payloadG: number): number {
  return Math.min(payloadG, r.grossLimitG - r.steerTareG - r.driveTareG - r.chassisTareG - r.containerTareG);
}

export interface AxleLoads extends AxleFigures {
  kingpin: number;
  gross: number;
}

/** The lever rule: cargo of this weight with its centre of gravity at x along the container. */
export function axleLoads(r: ContainerRoadSpec, cargoG: number, cogX: number): AxleLoads {
  const span = r.axleGroupX - r.kingpinX;
  const trailerMass = cargoG + r.chassisTareG + r.containerTareG;
  const moment =
    cargoG * (cogX - r.kingpinX) + r.chassisTareG * (r.chassisCogX - r.kingpinX) + r.containerTareG * (r.containerCogX - r.kingpinX);
  const trailer = moment / span;
  const kingpin = trailerMass - trailer;
  return {
    steer: r.steerTareG + (kingpin * r.fifthWheelMm) / r.wheelbaseMm,
    drive: r.driveTareG + (kingpin * (r.wheelbaseMm - r.fifthWheelMm)) / r.wheelbaseMm,
    trailer,
    kingpin,
    gross: r.steerTareG + r.driveTareG + trailerMass,
  };
}

export function withinRoadLimits(r: ContainerRoadSpec, loads: AxleLoads): boolean {
  return (
    loads.gross <= r.grossLimitG &&
    loads.steer <= r.steerLimitG &&
    loads.drive <= r.driveLimitG &&
    loads.drive >= r.driveMinShare * loads.gross &&
    loads.trailer <= r.axleGroupLimitG &&
    loads.kingpin >= 0 &&
    loads.trailer >= 0
  );
}

/** The weights each placement puts where: its weight at its centre, as the centre of gravity takes it. */
export function cargoMoment(placements: readonly (PlacedBox & { weight_g: number })[]): { weight: number; cogX: number } {
  let weight = 0;
  let moment = 0;
  for (const p of placements) {
    weight += p.weight_g;
    moment += p.weight_g * (p.x + p.l / 2);
  }
  return { weight, cogX: weight > 0 ? moment / weight : 0 };
}

/** What the plan reports of a container on the road: every figure an outside checker needs to recompute it. */
export function containerRoad(r: ContainerRoadSpec, placements: readonly (PlacedBox & { weight_g: number })[]): ContainerRoad {
  const { weight, cogX } = cargoMoment(placements);
  const loads = axleLoads(r, weight, cogX);
  const g = Math.round;
  return {
    profile: r.profile,
    gross_g: g(loads.gross),
    gross_limit_g: r.grossLimitG,
    axle_loads_g: { steer: g(loads.steer), drive: g(loads.drive), trailer: g(loads.trailer) },
    axle_limits_g: { steer: r.steerLimitG, drive: r.driveLimitG, trailer: r.axleGroupLimitG },
    drive_min_g: g(r.driveMinShare * loads.gross),
    kingpin_load_g: g(loads.kingpin),
    tare_g: { tractor_steer: r.steerTareG, tractor_drive: r.driveTareG, chassis: r.chassisTareG, container: r.containerTareG },
    geometry_mm: {
      kingpin: r.kingpinX,
      trailer_axle_group: r.axleGroupX,
      chassis_tare_cog: r.chassisCogX,
      container_tare_cog: r.containerCogX,
      tractor_wheelbase: r.wheelbaseMm,
      fifth_wheel_ahead_of_drive: r.fifthWheelMm,
    },
    within_road_limits: withinRoadLimits(r, loads),
  };
}

/** A container type's road as the loader takes it (wasm-wire.ts Road, read by assembly/axle-loads.ts): whole numbers. */
export function roadOnWire(r: ContainerRoadSpec | undefined): Road | undefined {
  if (r === undefined) return undefined;
  return {
    grossLimitG: r.grossLimitG,
    steerTareG: r.steerTareG,
    driveTareG: r.driveTareG,
    wheelbaseMm: r.wheelbaseMm,
    fifthWheelMm: r.fifthWheelMm,
    steerLimitG: r.steerLimitG,
    driveLimitG: r.driveLimitG,
    driveMinShareMillionths: Math.round(r.driveMinShare * 1e6),
    chassisTareG: r.chassisTareG,
    chassisCogX: Math.round(r.chassisCogX),
    kingpinX: Math.round(r.kingpinX),
    axleGroupX: Math.round(r.axleGroupX),
    axleGroupLimitG: r.axleGroupLimitG,
    containerTareG: r.containerTareG,
    containerCogX: Math.round(r.containerCogX),
  };
}
