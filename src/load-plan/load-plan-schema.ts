// The load plan's schema for the OpenAPI document, kept equal to the LoadPlan type by the
// compile-time check at the bottom.
import Type, { type Static, type TSchema } from 'typebox';
import type { LoadPlan } from './load-plan.js';

const exact = { additionalProperties: false } as const;
const Mm = (description: string) => Type.Integer({ description: `${description} Millimetres.` });
const Kg = (description: string) => Type.Number({ minimum: 0, description: `${description} Kilograms, to the gram.` });
const box = {
  x: Mm('Minimum corner along the length.'),
  y: Mm('Minimum corner across the width.'),
  z: Mm('Minimum corner upwards.'),
  l: Mm('Size along x, after turning.'),
  w: Mm('Size along y, after turning.'),
  h: Mm('Size along z, after turning.'),
};
const PLACEMENT_KINDS = ['pallet', 'pre_built', 'loose_box'] as const;

const PlacementSchema = Type.Object(
  {
    kind: Type.Enum(PLACEMENT_KINDS),
    ref: Type.String({
      description:
        'AP3 for a service-built pallet (as in pallet contents); "<row name> #k" for the k-th pre-built pallet or loose box of a row.',
    }),
    ...box,
    weight_kg: Kg('Weight, pallet included.'),
    loading_order: Type.Integer({
      minimum: 1,
      description: '1 is loaded first (at the front wall); everything loads after what it stands on.',
    }),
    order: Type.Optional(
      Type.String({
        description:
          'Only in a consolidated shipment: the service_ref of the order this cargo belongs to (a child sees its own cargo by it).',
      }),
    ),
  },
  { ...exact, title: 'LoadPlanPlacement' },
);

const Axles = (what: string, title: string) =>
  Type.Object(
    { steer: Kg(`${what} The steer axle.`), drive: Kg(`${what} The drive axle group.`), trailer: Kg(`${what} The chassis' axle group.`) },
    { ...exact, title },
  );

const RoadSchema = Type.Object(
  {
    profile: Type.String({
      description: 'The lane\'s road profile: "EU", "EU-44", "US", or the name it gave its own numbers ("custom" when none).',
      examples: ['EU'],
    }),
    gross_kg: Kg('Tractor, chassis, container and cargo.'),
    gross_limit_kg: Kg('The most the whole vehicle may weigh on this road.'),
    axle_loads_kg: Axles("By the lever rule from the cargo's centre of gravity (docs/road-profiles.md).", 'AxleLoads'),
    axle_limits_kg: Axles('The limit.', 'AxleLimits'),
    drive_min_kg: Kg("The least the drive axles must carry (the profile's share of the gross; 0 where it has none)."),
    kingpin_load_kg: Kg("What the kingpin passes to the tractor's fifth wheel."),
    tare_kg: Type.Object(
      {
        tractor_steer: Kg('The empty tractor on its steer axle.'),
        tractor_drive: Kg('The empty tractor on its drive axles.'),
        chassis: Kg('The empty chassis.'),
        container: Kg('The empty container.'),
      },
      exact,
    ),
    geometry_mm: Type.Object(
      {
        kingpin: Mm("The kingpin, from the front wall (the plan's x = 0)."),
        trailer_axle_group: Mm("The centre of the chassis' axle group, from the front wall."),
        chassis_tare_cog: Mm("The empty chassis' centre of gravity, from the front wall."),
        container_tare_cog: Mm("The empty container's centre of gravity, from the front wall."),
        tractor_wheelbase: Mm('From the steer axle to the centre of the drive axle group.'),
        fifth_wheel_ahead_of_drive: Mm('The fifth wheel ahead of the centre of the drive axle group (negative: behind).'),
      },
      {
        ...exact,
        description:
          'Every distance the lever rule takes: trailer axle group = (cargo x (cog.x - kingpin) + chassis x (chassis_tare_cog - kingpin) + container x (container_tare_cog - kingpin)) / (trailer_axle_group - kingpin); kingpin load = cargo + chassis + container - trailer axle group; drive = tractor_drive + kingpin load x (tractor_wheelbase - fifth_wheel_ahead_of_drive) / tractor_wheelbase; steer = tractor_steer + kingpin load x fifth_wheel_ahead_of_drive / tractor_wheelbase.',
      },
    ),
    within_road_limits: Type.Boolean({
      description:
        'Gross and every axle within its limit, the drive axles at least drive_min_kg. A TruckFTL plan never carries a container outside them.',
    }),
  },
  { ...exact, title: 'LoadPlanRoad' },
);

const ContainerSchema = Type.Object(
  {
    code: Type.String({ examples: ['40ft-HC'] }),
    index: Type.Integer({ minimum: 1, description: '1-based among the containers of the plan.' }),
    inner_mm: Type.Object({ l: Mm('Inner length.'), w: Mm('Inner width.'), h: Mm('Inner height.') }, exact),
    payload_kg: Kg('Maximum payload.'),
    cargo_weight_kg: Kg('Weight of everything loaded.'),
    center_of_gravity_mm: Type.Union(
      [Type.Object({ x: Mm('From the front wall.'), y: Mm('From the left wall.'), z: Mm('From the floor.') }, exact), Type.Null()],
      {
        description:
          "The cargo's centre of gravity; null when the container carries nothing (a container the order booked by count and the cargo does not need, spec 2.8).",
      },
    ),
    within_cog_limits: Type.Boolean({
      description:
        'Centre of gravity within 5 % of the inner length from the middle and within 5 % of the inner width from the centreline (CTU Code, annex 7, 3.1.4).',
    }),
    road: Type.Union([RoadSchema, Type.Null()], {
      description:
        'The truck this container rides on and its axle loads, when the lane holds the order to a road profile (TruckFTL orders, and OceanFCL where the lane says so); null otherwise.',
    }),
    placements: Type.Array(PlacementSchema),
  },
  { ...exact, title: 'LoadPlanContainer' },
);

const PalletSchema = Type.Object(
  {
    ref: Type.String({ description: 'pallet_index of pallet contents.', examples: ['AP1'] }),
    pallet_code: Type.String({ examples: ['EUR'] }),
    l: Mm('Length.'),
    w: Mm('Width.'),
    h: Mm('Loaded height, pallet included.'),
    weight_kg: Kg('Loaded weight, pallet included.'),
    units: Type.Array(Type.Object({ sku: Type.String(), ...box }, exact), {
      description: 'From a deck corner; z = 0 is the top of the deck.',
    }),
  },
  { ...exact, title: 'LoadPlanPallet' },
);

const UnplacedSchema = Type.Object(
  {
    kind: Type.Enum(['unit', ...PLACEMENT_KINDS] as const),
    ref: Type.String({ description: 'The SKU for units, AP# for pallets, the row name for pre-built pallets and loose boxes.' }),
    count: Type.Integer({ minimum: 1 }),
    reason: Type.Enum([
      'too_large_for_every_type',
      'out_of_containers',
      'over_payload',
      'over_road_gross',
      'over_axle_limits',
      'no_item_master_data',
      'no_pallet_type',
      'too_large_for_pallet',
      'over_pallet_max_weight',
    ] as const),
    detail: Type.Optional(
      Type.String({
        description:
          'The road reasons in a sentence with the figures: over_road_gross (heavier than the road leaves any container type that takes it: gross less tractor, chassis and box), over_axle_limits (nowhere along any such container are the axles within their limits).',
      }),
    ),
  },
  { ...exact, title: 'LoadPlanUnplaced' },
);

const EXAMPLE: LoadPlan = {
  service_ref: 'SO-000042',
  reference: 'PO-1',
  viewer_url: 'https://orders.example.com/plans/SO-000042?token=1767225600.q3H1G2x0bW9kZWwtZXhhbXBsZS1zaWduYXR1cmUtMDAx',
  containers: [
    {
      code: '20ft',
      index: 1,
      inner_mm: { l: 5898, w: 2352, h: 2393 },
      payload_kg: 28200,
      cargo_weight_kg: 1154,
      center_of_gravity_mm: { x: 2950, y: 1176, z: 612 },
      within_cog_limits: true,
      road: null,
      placements: [
        { kind: 'pallet', ref: 'AP1', x: 2349, y: 776, z: 0, l: 1200, w: 800, h: 1194, weight_kg: 1085, loading_order: 1 },
        { kind: 'loose_box', ref: 'Spare parts #1', x: 3549, y: 976, z: 0, l: 500, w: 400, h: 300, weight_kg: 12, loading_order: 2 },
      ],
    },
  ],
  pallets: [
    {
      ref: 'AP1',
      pallet_code: 'EUR',
      l: 1200,
      w: 800,
      h: 1194,
      weight_kg: 1085,
      units: [{ sku: 'SKU-1001', x: 0, y: 0, z: 0, l: 400, w: 300, h: 250 }],
    },
  ],
  unplaced: [],
};

export const LoadPlanSchema = Type.Object(
  {
    service_ref: Type.String(),
    reference: Type.String(),
    viewer_url: Type.String({
      format: 'uri',
      description: 'The 3D viewer of this plan: a signed link that opens without an API key and expires (30 days by default).',
    }),
    containers: Type.Array(ContainerSchema, {
      description:
        'Axes: x along the length from the front wall (the end opposite the doors), y across from the left wall, z up from the floor.',
    }),
    pallets: Type.Array(PalletSchema, { description: 'Service-built pallets, in the order of pallet contents.' }),
    unplaced: Type.Array(UnplacedSchema, { description: 'What the plan could not load, and why.' }),
  },
  {
    ...exact,
    title: 'LoadPlan',
    description: 'Lengths in whole millimetres and weights in kilograms, whatever the units of the lane.',
    examples: [EXAMPLE],
  },
);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Exactly<S extends TSchema, T> = Same<Static<S>, T> extends true ? Same<keyof Static<S>, keyof T> : false;
const schemaMatchesType: Exactly<typeof LoadPlanSchema, LoadPlan> = true;
void schemaMatchesType;
