// Validation of the bootstrap document (master-data.md), for the seed file and the admin API alike.
// An invalid document is refused whole, with every problem named by path in the order API's error
// shape: {"company_groups": [{"lanes": [{}, {"items": [{"weight": ["..."]}]}]}]}.
import type { FieldErrors } from '../validation/field-errors.js';
import { NON_FIELD_ERRORS } from '../validation/field-errors.js';
import { reportAjvErrors } from '../validation/ajv-errors.js';
import { validatorFor } from '../validation/ajv.js';
import { FieldErrorCollector, type ErrorPath } from '../validation/error-collector.js';
import { findJsonShapeProblem } from '../validation/json-shape-limits.js';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { CHASSIS_CLASS_OF, type ChassisClass, type ContainerCode } from '../plan-contract/container-codes.js';
import { ROAD_PRESET_NAMES } from '../plan-contract/road-profile.js';
import type { MasterDataDocument } from './master-data-document.js';
import { MasterDataDocumentSchema, type MasterDataDocumentInput } from './master-data-schema.js';

export type MasterDataValidation = { ok: true; value: MasterDataDocument } | { ok: false; errors: FieldErrors };

export function validateMasterDataDocument(body: unknown): MasterDataValidation {
  const collector = new FieldErrorCollector(body);
  // The admin route checked this already; the seed file comes here straight from JSON.parse.
  const problem = findJsonShapeProblem(body);
  if (problem) {
    collector.add(problem.path, problem.message);
    return { ok: false, errors: collector.errors };
  }
  const validate = validatorFor(MasterDataDocumentSchema);
  if (!validate(body)) reportAjvErrors(oneBranchOfEachUnion(validate.errors ?? []), body, collector);
  checkAcrossElements(body, collector);
  if (!collector.empty) return { ok: false, errors: collector.errors };
  return { ok: true, value: normalize(body as MasterDataDocumentInput) };
}

// These run on a document that may be malformed anywhere, so every step looks before it reads.
function checkAcrossElements(body: unknown, collector: FieldErrorCollector): void {
  const groupNames = new FirstSeen<string>();
  const keys = new FirstSeen<string>();
  const laneIds = new FirstSeen<number>();
  elements(isObject(body) ? body.company_groups : undefined).forEach((group, g) => {
    const groupPath = ['company_groups', g];
    if (typeof group.name === 'string') {
      const first = groupNames.see(group.name, g);
      if (first !== undefined)
        collector.add(
          [...groupPath, 'name'],
          `Company group "${group.name}" is already defined at company_groups[${first}]; group names are unique.`,
        );
    }
    elements(group.api_keys).forEach((apiKey, k) => {
      if (typeof apiKey.key !== 'string') return;
      // Do not echo the key itself: error bodies end up in logs.
      const first = keys.see(apiKey.key, `company_groups[${g}].api_keys[${k}]`);
      if (first !== undefined)
        collector.add([...groupPath, 'api_keys', k, 'key'], `This key is already given at ${first}; every API key must be unique.`);
    });
    const pairs = new FirstSeen<string>();
    elements(group.lanes).forEach((lane, l) => {
      const lanePath: ErrorPath = [...groupPath, 'lanes', l];
      if (typeof lane.id === 'number' && Number.isInteger(lane.id)) {
        const first = laneIds.see(lane.id, `company_groups[${g}].lanes[${l}]`);
        if (first !== undefined)
          collector.add([...lanePath, 'id'], `Lane id ${lane.id} is already used at ${first}; lane ids are unique across the document.`);
      }
      if (typeof lane.supplier === 'string' && typeof lane.consignee === 'string') {
        const first = pairs.see(JSON.stringify([lane.supplier, lane.consignee]), l);
        if (first !== undefined) {
          collector.add(
            [...lanePath, NON_FIELD_ERRORS],
            `Supplier "${lane.supplier}" and consignee "${lane.consignee}" already form lanes[${first}] of this group; a pair identifies one lane.`,
          );
        }
      }
      checkPalletTypes(lane.pallet_types, [...lanePath, 'pallet_types'], collector);
      checkRoadProfile(lane, [...lanePath, 'road_profile'], collector);
      const skus = new FirstSeen<string>();
      elements(lane.items).forEach((item, i) => {
        if (typeof item.sku !== 'string') return;
        const first = skus.see(item.sku, i);
        if (first !== undefined)
          collector.add([...lanePath, 'items', i, 'sku'], `SKU "${item.sku}" is already defined at items[${first}] of this lane.`);
      });
    });
  });
}

function checkPalletTypes(palletTypes: unknown, path: ErrorPath, collector: FieldErrorCollector): void {
  const codes = new FirstSeen<string>();
  elements(palletTypes).forEach((pallet, p) => {
    if (typeof pallet.code === 'string') {
      const first = codes.see(pallet.code, p);
      if (first !== undefined)
        collector.add([...path, p, 'code'], `Pallet type code "${pallet.code}" is already used at pallet_types[${first}] of this lane.`);
    }
    // Only compare numbers that are valid on their own; a bad height has its own error already.
    const { height, max_height: maxHeight, weight, max_weight: maxWeight } = pallet;
    if (isPositive(height) && isPositive(maxHeight) && maxHeight <= height) {
      collector.add(
        [...path, p, 'max_height'],
        `Ensure max_height is greater than the empty pallet's height (${height}); it is the loaded pallet's total height.`,
      );
    }
    if (isPositive(weight) && isPositive(maxWeight) && maxWeight <= weight) {
      collector.add(
        [...path, p, 'max_weight'],
        `Ensure max_weight is greater than the empty pallet's weight (${weight}); it is the loaded pallet's total weight.`,
      );
    }
  });
}

/**
 * road_profile is a preset's name or an object of numbers: ajv reports what either branch finds wrong,
 * but the client meant the one its value's type says. Only that branch's errors are kept; a value of
 * neither type gets one error that names both.
 */
function oneBranchOfEachUnion(errors: readonly ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf');
  if (unions.length === 0) return [...errors];
  const kept: ErrorObject[] = [];
  for (const error of errors) {
    const union = unions.find((u) => error !== u && error.schemaPath.startsWith(`${u.schemaPath}/`));
    if (union === undefined) {
      if (error.keyword !== 'anyOf') kept.push(error);
      else if (!isObject(error.data) && typeof error.data !== 'string')
        kept.push({
          ...error,
          keyword: 'oneOfKinds',
          message: `Expected one of ${ROAD_PRESET_NAMES.map((n) => `"${n}"`).join(', ')}, or an object of numbers`,
        });
      continue;
    }
    const branch = Number(error.schemaPath.slice(union.schemaPath.length + 1).split('/')[0]);
    if (branch === (typeof union.data === 'string' ? 0 : isObject(union.data) ? 1 : -1)) kept.push(error);
  }
  return kept;
}

/** A road profile's numbers that only make sense together, and a chassis for every container of its lane. */
function checkRoadProfile(lane: Record<string, unknown>, path: ErrorPath, collector: FieldErrorCollector): void {
  const profile = lane.road_profile;
  if (!isObject(profile)) return;
  const tractor = isObject(profile.tractor) ? profile.tractor : {};
  const { wheelbase_mm: wheelbase, fifth_wheel_mm: fifthWheel } = tractor;
  if (isFiniteNumber(wheelbase) && isFiniteNumber(fifthWheel) && fifthWheel >= wheelbase)
    collector.add(
      [...path, 'tractor', 'fifth_wheel_mm'],
      `Ensure fifth_wheel_mm is less than wheelbase_mm (${wheelbase}): the fifth wheel stands behind the steer axle.`,
    );
  for (const [axle, tare] of [
    ['steer', 'steer_tare_kg'],
    ['drive', 'drive_tare_kg'],
  ] as const) {
    const limit = tractor[`${axle}_limit_kg`];
    if (isPositive(limit) && isPositive(tractor[tare]) && limit <= (tractor[tare] as number))
      collector.add(
        [...path, 'tractor', `${axle}_limit_kg`],
        `Ensure ${axle}_limit_kg is greater than ${tare} (${tractor[tare]}): the empty tractor alone reaches it.`,
      );
  }
  const chassis = isObject(profile.chassis) ? profile.chassis : {};
  const needed = new Set<ChassisClass>();
  for (const code of Array.isArray(lane.container_codes) ? lane.container_codes : []) {
    const cls = CHASSIS_CLASS_OF[code as ContainerCode];
    if (cls !== undefined) needed.add(cls);
  }
  for (const cls of needed) {
    if (chassis[cls] === undefined && isObject(profile.chassis))
      collector.add([...path, 'chassis', cls], `This lane enables a container carried on a ${cls} chassis: give its numbers.`);
  }
  for (const [cls, c] of Object.entries(chassis)) {
    if (!isObject(c)) continue;
    if (isFiniteNumber(c.kingpin_mm) && isFiniteNumber(c.axle_group_mm) && c.axle_group_mm <= c.kingpin_mm)
      collector.add(
        [...path, 'chassis', cls, 'axle_group_mm'],
        `Ensure axle_group_mm is greater than kingpin_mm (${c.kingpin_mm}): the axle group stands behind the kingpin.`,
      );
  }
}

/** Builds the document type field by field: defaults filled in, optional fields kept only when given. */
function normalize(input: MasterDataDocumentInput): MasterDataDocument {
  return {
    company_groups: input.company_groups.map((group) => ({
      name: group.name,
      api_keys: group.api_keys.map(({ name, key }) => ({ name, key })),
      notification_emails: [...(group.notification_emails ?? [])],
      webhooks: (group.webhooks ?? []).map(({ url, secret }) => ({ url, secret })),
      lanes: group.lanes.map((lane) => ({
        id: lane.id,
        supplier: lane.supplier,
        consignee: lane.consignee,
        transportation_modes: [...lane.transportation_modes],
        units: { length: lane.units.length, weight: lane.units.weight },
        pallet_types: lane.pallet_types.map(({ code, length, width, height, weight, max_height, max_weight }) => ({
          code,
          length,
          width,
          height,
          weight,
          max_height,
          max_weight,
        })),
        container_codes: [...lane.container_codes],
        items: lane.items.map(({ sku, length, width, height, weight, upright, max_load_on_top, stackable }) => ({
          sku,
          length,
          width,
          height,
          weight,
          upright: upright ?? false,
          // absent stays absent: an item defined before these fields existed is the same item
          ...(max_load_on_top !== undefined ? { max_load_on_top } : {}),
          ...(stackable !== undefined ? { stackable } : {}),
        })),
        ...(lane.consolidation_window_seconds !== undefined ? { consolidation_window_seconds: lane.consolidation_window_seconds } : {}),
        ...(lane.road_profile !== undefined ? { road_profile: structuredClone(lane.road_profile) } : {}),
        ...(lane.road_profile_modes !== undefined ? { road_profile_modes: [...lane.road_profile_modes] } : {}),
      })),
    })),
  };
}

/** Remembers where a value was first seen; `see` answers that place for a repeat, else undefined. */
class FirstSeen<T> {
  private readonly places = new Map<T, string | number>();

  see(value: T, place: string | number): string | number | undefined {
    const first = this.places.get(value);
    if (first === undefined) this.places.set(value, place);
    return first;
  }
}

/** The object elements of a list, keeping their indexes; anything else reads as no elements. */
function elements(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.map((element) => (isObject(element) ? element : {}));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isPositive(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}
