// A lane's road_profile as ajv checks it and the OpenAPI document shows it: a preset's name or the
// numbers. What they mean and the presets: src/plan-contract/road-profile.ts, docs/road-profiles.md.
import Type from 'typebox';
import { CHASSIS_CLASSES } from '../plan-contract/container-codes.js';
import { ROAD_PRESET_NAMES } from '../plan-contract/road-profile.js';

/** Bounds no road vehicle comes near: they keep hostile numbers out of the planner's arithmetic. */
const MAX_KG = 200_000;
const MAX_MM = 30_000;
const exact = { additionalProperties: false } as const;

const kg = (description: string) => Type.Number({ exclusiveMinimum: 0, maximum: MAX_KG, description: `${description} Kilograms.` });
const position = (description: string) =>
  Type.Number({ minimum: -MAX_MM, maximum: MAX_MM, description: `${description} Millimetres from the container's outer front face.` });

export const RoadTractorSchema = Type.Object(
  {
    steer_tare_kg: kg('What the empty tractor (driver and fuel aboard) puts on its steer axle.'),
    drive_tare_kg: kg('What the empty tractor puts on its drive axle group.'),
    wheelbase_mm: Type.Number({
      minimum: 1_000,
      maximum: MAX_MM,
      description: 'From the steer axle to the centre of the drive axle group. Millimetres.',
    }),
    fifth_wheel_mm: Type.Number({
      minimum: -5_000,
      maximum: MAX_MM,
      description:
        'How far the fifth wheel sits ahead of the centre of the drive axle group (negative: behind it); less than wheelbase_mm. Millimetres.',
    }),
    steer_limit_kg: kg('The most the steer axle may carry.'),
    drive_limit_kg: kg('The most the drive axle group may carry.'),
    drive_min_share: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 0.5,
        description:
          'The least share of the gross the drive axles must carry (Directive 96/53/EC: 0.25 in international traffic). Default 0: no such rule.',
      }),
    ),
  },
  { ...exact, title: 'RoadTractor' },
);

export const RoadChassisSchema = Type.Object(
  {
    tare_kg: kg('The empty chassis (semi-trailer).'),
    tare_cog_mm: position("The empty chassis' centre of gravity."),
    kingpin_mm: position('The kingpin.'),
    axle_group_mm: position("The centre of the chassis' axle group; behind the kingpin."),
    axle_group_limit_kg: kg("The most the chassis' axle group may carry."),
    gross_limit_kg: kg('The most the whole vehicle (tractor, chassis, container and cargo) may weigh.'),
  },
  { ...exact, title: 'RoadChassis' },
);

export const RoadProfileObjectSchema = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'A label the plan reports as the profile; default "custom".' }),
    ),
    tractor: RoadTractorSchema,
    chassis: Type.Object(
      {
        '20ft': Type.Optional(RoadChassisSchema),
        '40ft': Type.Optional(RoadChassisSchema),
        '45ft': Type.Optional(RoadChassisSchema),
      },
      {
        ...exact,
        title: 'RoadChassisByClass',
        description: `Per chassis class (${CHASSIS_CLASSES.join(', ')}: 20ft carries 20ft, 20ft-RF and 20ft-OT; 40ft carries 40ft, 40ft-HC, 40ft-HC RF and 40ft-OT; 45ft carries 45ft-HC). Each class of the lane's container codes must be given.`,
      },
    ),
  },
  { ...exact, title: 'RoadProfile', description: 'A truck and its road limits, number by number (docs/road-profiles.md).' },
);

export const RoadProfileSpecSchema = Type.Union([Type.Enum(ROAD_PRESET_NAMES, { title: 'RoadPreset' }), RoadProfileObjectSchema], {
  description:
    'The roads a TruckFTL container of this lane travels: "EU" (Directive 96/53/EC, 40 t), "EU-44" (combined transport: 44 t for 40ft and 45ft boxes), "US" (23 CFR 658.17, 80,000 lb), or the numbers of your own truck. Absent: no road rule, as before.',
});
