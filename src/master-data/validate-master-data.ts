// Validation of the bootstrap document (master-data.md), for the seed file and the admin API alike.
// An invalid document is refused whole, with every problem named by path in the order API's error
// shape: {"company_groups": [{"lanes": [{}, {"items": [{"weight": ["..."]}]}]}]}.
import type { FieldErrors } from '../validation/field-errors.js';
import { NON_FIELD_ERRORS } from '../validation/field-errors.js';
import { reportAjvErrors } from '../validation/ajv-errors.js';
import { validatorFor } from '../validation/ajv.js';
import { FieldErrorCollector, type ErrorPath } from '../validation/error-collector.js';
import { findJsonShapeProblem } from '../validation/json-shape-limits.js';
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
  if (!validate(body)) reportAjvErrors(validate.errors ?? [], body, collector);
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

/** Builds the document type field by field: unknown fields are dropped, defaults filled in. */
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
        items: lane.items.map(({ sku, length, width, height, weight, upright }) => ({
          sku,
          length,
          width,
          height,
          weight,
          upright: upright ?? false,
        })),
        ...(lane.consolidation_window_seconds !== undefined ? { consolidation_window_seconds: lane.consolidation_window_seconds } : {}),
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

function isPositive(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}
