// The validator's own check of the road (docs/road-profiles.md), apart from the planner's: a container
// of an order the lane holds to a road profile carries a road block, every figure of it is the
// placements' own by the lever rule worked out here again, and gross and axles are within the limits
// master data gives (kg as given, not the planner's rounding). An order held to no road carries none.
import { ROAD_PRESETS } from '../../plan-contract/road-profile.js';
import type { PlannedContainer } from '../../plan-contract/plan-types.js';
import { CONTAINER_CATALOG } from '../containers.js';
import type { RoadProfileNumbers, SubmittedCargo } from './submitted-cargo.js';

/** Grams: the plan's figures are rounded to the gram, its tares up and its limits down. */
const TOLERANCE_G = 2;

/** The chassis class of a container code, read from the code itself. */
function chassisClassOf(code: string): string {
  return code.startsWith('20') ? '20ft' : code.startsWith('45') ? '45ft' : '40ft';
}

function roadNumbers(input: SubmittedCargo): { profile: string; numbers: RoadProfileNumbers } | undefined {
  const spec = input.lane.road_profile;
  if (spec === undefined || !(input.lane.road_profile_modes ?? ['TruckFTL']).includes(input.order.transportation_mode)) return undefined;
  if (typeof spec === 'string') {
    const numbers = (ROAD_PRESETS as Record<string, RoadProfileNumbers | undefined>)[spec];
    return numbers && { profile: spec, numbers };
  }
  return { profile: spec.name ?? 'custom', numbers: spec };
}

export function checkRoad(input: SubmittedCargo, containers: readonly PlannedContainer[], v: string[]): void {
  const road = roadNumbers(input);
  for (const c of containers) {
    const at = `container ${c.index} (${c.code})`;
    if (road === undefined) {
      if (c.road !== undefined) v.push(`${at}: a road block, but the lane holds this order to no road profile`);
      continue;
    }
    if (c.road === undefined) {
      v.push(`${at}: no road block, yet the lane holds this order to the ${road.profile} road`);
      continue;
    }
    const box = (CONTAINER_CATALOG as Record<string, (typeof CONTAINER_CATALOG)['40ft'] | undefined>)[c.code];
    const chassis = road.numbers.chassis[chassisClassOf(c.code)];
    if (!box || !chassis) {
      v.push(`${at}: the ${road.profile} road has no chassis for it`);
      continue;
    }
    const t = road.numbers.tractor;
    // positions in the plan's frame: from the inside of the front wall
    const wall = box.front_wall_mm;
    const kingpin = chassis.kingpin_mm - wall;
    const axles = chassis.axle_group_mm - wall;
    const chassisAt = chassis.tare_cog_mm - wall;
    const boxAt = box.outer_length_mm / 2 - wall;
    const g = (kg: number) => kg * 1000;
    let cargo = 0;
    let moment = 0;
    for (const p of c.placements) {
      cargo += p.weight_g;
      moment += p.weight_g * (p.x + p.l / 2 - kingpin);
    }
    const boxTare = g(box.tare_kg);
    const chassisTare = g(chassis.tare_kg);
    // the chassis on its kingpin and axle group, moments about the kingpin
    const trailer = (moment + chassisTare * (chassisAt - kingpin) + boxTare * (boxAt - kingpin)) / (axles - kingpin);
    const onKingpin = cargo + chassisTare + boxTare - trailer;
    // the kingpin's load on the fifth wheel, between the steer axle and the drive axles
    const fromSteer = t.wheelbase_mm - t.fifth_wheel_mm;
    const drive = g(t.drive_tare_kg) + (onKingpin * fromSteer) / t.wheelbase_mm;
    const steer = g(t.steer_tare_kg) + onKingpin - (onKingpin * fromSteer) / t.wheelbase_mm;
    const gross = g(t.steer_tare_kg) + g(t.drive_tare_kg) + chassisTare + boxTare + cargo;
    const r = c.road;
    const differs = (name: string, planned: number, computed: number) => {
      if (Math.abs(planned - computed) > TOLERANCE_G) v.push(`${at}: road ${name} ${planned} g, computed ${computed.toFixed(0)} g`);
    };
    differs('gross_g', r.gross_g, gross);
    differs('axle_loads_g.steer', r.axle_loads_g.steer, steer);
    differs('axle_loads_g.drive', r.axle_loads_g.drive, drive);
    differs('axle_loads_g.trailer', r.axle_loads_g.trailer, trailer);
    differs('kingpin_load_g', r.kingpin_load_g, onKingpin);
    if (r.profile !== road.profile) v.push(`${at}: road profile ${r.profile}, the lane's is ${road.profile}`);
    const over: [string, number, number][] = [
      ['gross', gross, g(chassis.gross_limit_kg)],
      ['steer axle', steer, g(t.steer_limit_kg)],
      ['drive axles', drive, g(t.drive_limit_kg)],
      ["chassis' axle group", trailer, g(chassis.axle_group_limit_kg)],
    ];
    let within = true;
    for (const [what, load, limit] of over) {
      if (load > limit + TOLERANCE_G) {
        within = false;
        v.push(`${at}: ${what} ${load.toFixed(0)} g, over its limit of ${limit} g on the ${road.profile} road`);
      }
    }
    const share = t.drive_min_share ?? 0;
    if (drive < share * gross - TOLERANCE_G) {
      within = false;
      v.push(`${at}: drive axles ${drive.toFixed(0)} g, under ${share * 100} % of the gross ${gross.toFixed(0)} g`);
    }
    if (onKingpin < -TOLERANCE_G || trailer < -TOLERANCE_G) {
      within = false;
      v.push(`${at}: the chassis would lift off its kingpin or its axles`);
    }
    if (r.within_road_limits !== within) v.push(`${at}: within_road_limits ${r.within_road_limits}, computed ${within}`);
  }
}
