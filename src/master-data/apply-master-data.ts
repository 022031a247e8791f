// Decider for applying a bootstrap document: the events are exactly the differences between the
// document and what is already known, so applying the same document twice records nothing.
// The document only adds and updates; what it does not name stays as it is.
import { createHash } from 'node:crypto';
import type { Decider } from '../decider/decider.js';
import { addElementError, hasErrors, type FieldErrors } from '../validation/field-errors.js';
import type { MasterDataDocument } from './master-data-document.js';
import { evolveMasterData, initialMasterData, type MasterData, type MasterDataEvent } from './master-data.js';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export type ApplyMasterDataDecision = { ok: true; events: MasterDataEvent[] } | { ok: false; errors: FieldErrors };

export function decideApplyMasterData(document: MasterDataDocument, state: MasterData): ApplyMasterDataDecision {
  const errors = conflictsWithState(document, state);
  if (hasErrors(errors)) return { ok: false, errors };

  const events: MasterDataEvent[] = [];
  for (const group of document.company_groups) {
    const defined = { name: group.name, notification_emails: group.notification_emails, webhooks: group.webhooks };
    if (!sameJson(state.groups.get(group.name), defined)) events.push({ type: 'CompanyGroupDefined', data: defined });

    for (const key of group.api_keys) {
      const issued = { company_group: group.name, name: key.name, key_hash: hashApiKey(key.key) };
      if (!sameJson(state.keys.get(issued.key_hash), issued)) events.push({ type: 'ApiKeyIssued', data: issued });
    }

    for (const { items, ...settings } of group.lanes) {
      const known = state.lanes.get(settings.id);
      if (!known || !sameJson(known.settings, settings)) {
        events.push({ type: 'LaneDefined', data: { company_group: group.name, lane: settings } });
      }
      for (const item of items) {
        if (!sameJson(known?.items.get(item.sku), item)) events.push({ type: 'ItemDefined', data: { lane_id: settings.id, item } });
      }
    }
  }
  return { ok: true, events };
}

/** Master data's rules as one value: the command is the document to apply. */
export const masterDataDecider: Decider<MasterDataDocument, MasterData, MasterDataEvent, FieldErrors> = {
  initialState: initialMasterData,
  evolve: evolveMasterData,
  decide: decideApplyMasterData,
};

/** What the document may not do to existing master data: move a lane or a key to another group. */
function conflictsWithState(document: MasterDataDocument, state: MasterData): FieldErrors {
  const errors: FieldErrors = {};
  const groups = document.company_groups;
  groups.forEach((group, g) => {
    const groupErrors: FieldErrors = {};
    group.lanes.forEach((lane, l) => {
      const known = state.lanes.get(lane.id);
      if (known && known.company_group !== group.name) {
        addElementError(
          groupErrors,
          'lanes',
          group.lanes.length,
          l,
          'id',
          `Lane ${lane.id} already belongs to company group "${known.company_group}"; lanes cannot move between groups.`,
        );
      }
    });
    group.api_keys.forEach((key, k) => {
      const known = state.keys.get(hashApiKey(key.key));
      if (known && known.company_group !== group.name) {
        addElementError(groupErrors, 'api_keys', group.api_keys.length, k, 'key', 'This key is already issued to another company group.');
      }
    });
    if (hasErrors(groupErrors)) {
      const list = (errors.company_groups ??= Array.from({ length: groups.length }, () => ({}))) as FieldErrors[];
      list[g] = groupErrors;
    }
  });
  return errors;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a !== undefined && canonicalJson(a) === canonicalJson(b);
}

// Key order carries no meaning in the document: an operator reordering fields changes nothing.
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
