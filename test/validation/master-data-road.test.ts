// The road profile and load-bearing fields of the master-data document: a preset's name or the
// numbers, each refused with a field error that names it; limits and geometry that only make sense
// together; a chassis for every container the lane enables; item limits kept only when given.
import t, { type TAP } from 'tap';
import { validateMasterDataDocument } from '../../src/master-data/validate-master-data.js';
import { ROAD_PRESETS } from '../../src/plan-contract/road-profile.js';
import type { FieldErrors } from '../../src/validation/field-errors.js';

// `any`: test documents are edited freely, deep inside.
type Json = Record<string, any>;

const baseLane = (): Json => ({
  id: 101,
  supplier: 'Acme Supplier Ltd',
  consignee: 'Globex Consignee GmbH',
  transportation_modes: ['OceanFCL', 'TruckFTL'],
  units: { length: 'cm', weight: 'kg' },
  pallet_types: [{ code: 'EUR', length: 120, width: 80, height: 14.4, weight: 25, max_height: 220, max_weight: 1500 }],
  container_codes: ['20ft', '40ft', '40ft-HC'],
  items: [{ sku: 'SKU-1001', length: 40, width: 30, height: 25, weight: 9.5 }],
});
const withLane = (overrides: Json): Json => ({
  company_groups: [
    { name: 'Acme Group', api_keys: [{ name: 'erp', key: 'acme-demo-key-0001' }], lanes: [{ ...baseLane(), ...overrides }] },
  ],
});
const laneErrors = (errors: FieldErrors): FieldErrors => ({ company_groups: [{ lanes: [errors] }] });
type Assert = Pick<TAP, 'strictSame' | 'fail' | 'equal' | 'same' | 'notOk'>;
const custom = (): Json => structuredClone(ROAD_PRESETS.EU) as Json;

function refused(t: Assert, body: unknown, expected: FieldErrors): void {
  const result = validateMasterDataDocument(body);
  if (result.ok) return void t.fail('accepted');
  t.strictSame(result.errors, expected);
}
function lane(t: Assert, body: unknown): Json {
  const result = validateMasterDataDocument(body);
  if (!result.ok) {
    t.fail(`refused: ${JSON.stringify(result.errors)}`);
    return {};
  }
  return result.value.company_groups[0]!.lanes[0] as Json;
}

t.test('a preset by name, or the numbers; road_profile_modes kept as given', async (t) => {
  for (const name of ['EU', 'EU-44', 'US']) t.equal(lane(t, withLane({ road_profile: name })).road_profile, name);
  t.same(lane(t, withLane({ road_profile: custom() })).road_profile, custom());
  t.same(lane(t, withLane({ road_profile: 'EU', road_profile_modes: ['TruckFTL', 'OceanFCL'] })).road_profile_modes, [
    'TruckFTL',
    'OceanFCL',
  ]);
  const plain = lane(t, withLane({}));
  t.notOk('road_profile' in plain, 'absent stays absent: a lane defined before is the same lane');
  t.notOk('road_profile_modes' in plain);
});

t.test('an unknown preset, a value of neither kind, a mode that is none: each named once', async (t) => {
  refused(
    t,
    withLane({ road_profile: 'EU-40' }),
    laneErrors({ road_profile: ['"EU-40" is not a valid choice; use one of: EU, EU-44, US.'] }),
  );
  refused(
    t,
    withLane({ road_profile: 44 }),
    laneErrors({ road_profile: ['Expected one of "EU", "EU-44", "US", or an object of numbers.'] }),
  );
  refused(
    t,
    withLane({ road_profile: 'EU', road_profile_modes: ['Air'] }),
    laneErrors({ road_profile_modes: { 0: ['"Air" is not a valid choice; use one of: OceanFCL, TruckFTL.'] } }),
  );
  refused(t, withLane({ road_profile: 'EU', road_profile_modes: [] }), laneErrors({ road_profile_modes: ['This list may not be empty.'] }));
});

t.test('the numbers: each missing, misspelt or out of bounds field named where it stands', async (t) => {
  const p = custom();
  delete p.tractor.drive_limit_kg;
  p.tractor.drive_limt_kg = 11_500;
  p.tractor.steer_tare_kg = -1;
  p.chassis['40ft'].gross_limit_kg = 1e9;
  p.chassis['40ft'].kingpin = 1300;
  refused(
    t,
    withLane({ road_profile: p }),
    laneErrors({
      road_profile: {
        tractor: {
          drive_limit_kg: ['This field is required.'],
          drive_limt_kg: ['Unknown field.'],
          steer_tare_kg: ['Ensure this value is greater than 0.'],
        },
        chassis: { '40ft': { kingpin: ['Unknown field.'], gross_limit_kg: ['Ensure this value is less than or equal to 200000.'] } },
      },
    }),
  );
});

t.test('numbers that only make sense together, and a chassis for each container the lane enables', async (t) => {
  const p = custom();
  p.tractor.fifth_wheel_mm = 3700;
  p.tractor.drive_limit_kg = 2000;
  p.chassis['40ft'].axle_group_mm = 1300;
  delete p.chassis['20ft'];
  refused(
    t,
    withLane({ road_profile: p }),
    laneErrors({
      road_profile: {
        tractor: {
          fifth_wheel_mm: ['Ensure fifth_wheel_mm is less than wheelbase_mm (3700): the fifth wheel stands behind the steer axle.'],
          drive_limit_kg: ['Ensure drive_limit_kg is greater than drive_tare_kg (2300): the empty tractor alone reaches it.'],
        },
        chassis: {
          '20ft': ['This lane enables a container carried on a 20ft chassis: give its numbers.'],
          '40ft': { axle_group_mm: ['Ensure axle_group_mm is greater than kingpin_mm (1300): the axle group stands behind the kingpin.'] },
        },
      },
    }),
  );
  // the 45ft class is not needed where the lane enables no 45ft-HC
  delete p.chassis['45ft'];
  const fine = custom();
  delete fine.chassis['45ft'];
  lane(t, withLane({ road_profile: fine }));
});

t.test("an item's max_load_on_top and stackable: kept when given, absent otherwise, refused when wrong", async (t) => {
  const items = [
    { sku: 'A', length: 40, width: 30, height: 25, weight: 9.5, max_load_on_top: 40 },
    { sku: 'B', length: 40, width: 30, height: 25, weight: 9.5, stackable: false },
    { sku: 'C', length: 40, width: 30, height: 25, weight: 9.5 },
  ];
  const value = lane(t, withLane({ items }));
  t.same(value.items, [
    { ...items[0], upright: false },
    { ...items[1], upright: false },
    { ...items[2], upright: false },
  ]);
  refused(
    t,
    withLane({
      items: [
        { ...items[0], max_load_on_top: -1 },
        { ...items[1], stackable: 'no' },
      ],
    }),
    laneErrors({
      items: [{ max_load_on_top: ['Ensure this value is greater than or equal to 0.'] }, { stackable: ['Expected true or false.'] }],
    }),
  );
});
