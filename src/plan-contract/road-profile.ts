// A lane's road profile (docs/road-profiles.md): the truck a TruckFTL container rides on and the
// limits of the roads it takes, as master data gives it, the planner plans to it and the validator
// checks it. A lane names a preset or gives the numbers itself. Weights in kg and distances in mm
// whatever the lane's units: a regulation states them so. Positions along the container (kingpin,
// axle group, the chassis' own centre of gravity) are measured from the container's outer front face
// (the end wall a chassis carries towards the tractor); the tractor's from its axles.
import type { ChassisClass } from './container-codes.js';

const LB = 0.453_592_37;
const lb = (pounds: number): number => pounds * LB;

export interface RoadTractorDocument {
  steer_tare_kg: number;
  drive_tare_kg: number;
  /** From the steer axle to the centre of the drive axle group. */
  wheelbase_mm: number;
  /** The fifth wheel ahead of the centre of the drive axle group (negative: behind it). */
  fifth_wheel_mm: number;
  steer_limit_kg: number;
  drive_limit_kg: number;
  /** The least share of the gross on the drive axles; absent: none. */
  drive_min_share?: number;
}

export interface RoadChassisDocument {
  tare_kg: number;
  tare_cog_mm: number;
  kingpin_mm: number;
  axle_group_mm: number;
  axle_group_limit_kg: number;
  gross_limit_kg: number;
}

export interface RoadProfileDocument {
  /** What the plan reports as the profile; absent: "custom". */
  name?: string;
  tractor: RoadTractorDocument;
  chassis: Partial<Record<ChassisClass, RoadChassisDocument>>;
}

export const ROAD_PRESET_NAMES = ['EU', 'EU-44', 'US'] as const;
export type RoadPresetName = (typeof ROAD_PRESET_NAMES)[number];

/** A lane's road_profile as the document gives it: a preset's name or the numbers. */
export type RoadProfileSpec = RoadPresetName | RoadProfileDocument;

// The presets' numbers and where each comes from: docs/road-profiles.md, table by table. Limits are
// the regulations'; tares and geometry a typical vehicle's, chosen so that a container loaded to what
// the road leaves, its centre of gravity at the middle, is legal.

/** Three-axle chassis: a tri-axle of a semi-trailer carries 24 t (96/53/EC Annex I 3.3). */
function euChassis(gross40: number, gross20: number): Record<ChassisClass, RoadChassisDocument> {
  return {
    '20ft': {
      tare_kg: 3_900,
      tare_cog_mm: 2_800,
      kingpin_mm: 1_000,
      axle_group_mm: 3_800,
      axle_group_limit_kg: 24_000,
      gross_limit_kg: gross20,
    },
    '40ft': {
      tare_kg: 4_800,
      tare_cog_mm: 5_900,
      kingpin_mm: 1_300,
      axle_group_mm: 8_400,
      axle_group_limit_kg: 24_000,
      gross_limit_kg: gross40,
    },
    '45ft': {
      tare_kg: 5_200,
      tare_cog_mm: 6_600,
      kingpin_mm: 1_300,
      axle_group_mm: 9_500,
      axle_group_limit_kg: 24_000,
      gross_limit_kg: gross40,
    },
  };
}

/** A tandem chassis: 34,000 lb on a tandem and 80,000 lb gross (23 CFR 658.17 (c) and (b)). */
function usChassis(tareLb: number, tareCog: number, axleGroup: number): RoadChassisDocument {
  return {
    tare_kg: lb(tareLb),
    tare_cog_mm: tareCog,
    kingpin_mm: 900,
    axle_group_mm: axleGroup,
    axle_group_limit_kg: lb(34_000),
    gross_limit_kg: lb(80_000),
  };
}

export const ROAD_PRESETS: Readonly<Record<RoadPresetName, RoadProfileDocument>> = {
  // 40 t (2.2.2 (a)) with a two-axle tractor: a single non-driving steer axle 10 t (3.1), the
  // driving axle 11.5 t (3.4), the driving axle at least 25 % of the gross in international traffic
  EU: {
    tractor: {
      steer_tare_kg: 5_400,
      drive_tare_kg: 2_300,
      wheelbase_mm: 3_700,
      fifth_wheel_mm: 600,
      steer_limit_kg: 10_000,
      drive_limit_kg: 11_500,
      drive_min_share: 0.25,
    },
    chassis: euChassis(40_000, 40_000),
  },
  // combined transport (2.2.2 (c)): 44 t for a three-axle motor vehicle carrying a 40-foot box, here a
  // 6x4 tractor whose driven tandem carries 18 t (3.5, spacing 1.3 to 1.8 m); a 20ft stays at 40 t
  'EU-44': {
    tractor: {
      steer_tare_kg: 5_900,
      drive_tare_kg: 3_300,
      wheelbase_mm: 4_500,
      fifth_wheel_mm: 500,
      steer_limit_kg: 10_000,
      drive_limit_kg: 18_000,
      drive_min_share: 0.25,
    },
    chassis: euChassis(44_000, 40_000),
  },
  // a three-axle tractor: its drive tandem 34,000 lb (658.17 (c)); 12,000 lb on the steer axle is
  // the usual planning convention, not a federal limit
  US: {
    tractor: {
      steer_tare_kg: lb(10_000),
      drive_tare_kg: lb(8_000),
      wheelbase_mm: 5_600,
      fifth_wheel_mm: 300,
      steer_limit_kg: lb(12_000),
      drive_limit_kg: lb(34_000),
    },
    chassis: {
      '20ft': usChassis(5_500, 3_340, 4_650),
      '40ft': usChassis(6_500, 7_100, 10_450),
      '45ft': usChassis(7_500, 8_050, 11_900),
    },
  },
};

/** The numbers of a lane's road profile and the name the plan reports. */
export function roadProfileNumbers(spec: RoadProfileSpec): { profile: string; numbers: RoadProfileDocument } {
  if (typeof spec === 'string') return { profile: spec, numbers: ROAD_PRESETS[spec] };
  return { profile: spec.name ?? 'custom', numbers: spec };
}
