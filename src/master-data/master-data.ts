// Master data as an event-sourced aggregate: one stream, `master-data`, holding what every
// applied bootstrap document changed. Replaying the stream rebuilds groups, keys, lanes and items.
import type { RecordedEvent } from '../eventstore/event-store.js';
import type { ItemDocument, LaneDocument, WebhookDocument } from './master-data-document.js';

export const MASTER_DATA_STREAM = 'master-data';

export interface CompanyGroupDefined {
  type: 'CompanyGroupDefined';
  data: { name: string; notification_emails: string[]; webhooks: WebhookDocument[] };
}
export interface ApiKeyIssued {
  type: 'ApiKeyIssued';
  /** Only the SHA-256 of the key is ever recorded. */
  data: { company_group: string; name: string; key_hash: string };
}
export interface LaneDefined {
  type: 'LaneDefined';
  data: { company_group: string; lane: LaneSettings };
}
export interface ItemDefined {
  type: 'ItemDefined';
  data: { lane_id: number; item: ItemDocument };
}
export type MasterDataEvent = CompanyGroupDefined | ApiKeyIssued | LaneDefined | ItemDefined;
export const MASTER_DATA_EVENT_TYPES: readonly MasterDataEvent['type'][] = [
  'CompanyGroupDefined',
  'ApiKeyIssued',
  'LaneDefined',
  'ItemDefined',
];

/** A lane without its item master, which changes item by item. */
export type LaneSettings = Omit<LaneDocument, 'items'>;

export interface CompanyGroup {
  name: string;
  notification_emails: string[];
  webhooks: WebhookDocument[];
}
export interface ApiKey {
  company_group: string;
  name: string;
  key_hash: string;
}
/** Who an order API request acts for: the company group of the API key it presented. */
export interface Caller {
  companyGroup: string;
}
export interface Lane {
  company_group: string;
  settings: LaneSettings;
  items: Map<string, ItemDocument>;
}

export interface MasterData {
  groups: Map<string, CompanyGroup>;
  /** By key hash. */
  keys: Map<string, ApiKey>;
  lanes: Map<number, Lane>;
}

export function initialMasterData(): MasterData {
  return { groups: new Map(), keys: new Map(), lanes: new Map() };
}

/** Folds one event into the state, in place: master data is small and read far more than written. */
export function evolveMasterData(state: MasterData, event: MasterDataEvent): MasterData {
  switch (event.type) {
    case 'CompanyGroupDefined':
      state.groups.set(event.data.name, { ...event.data });
      break;
    case 'ApiKeyIssued':
      state.keys.set(event.data.key_hash, { ...event.data });
      break;
    case 'LaneDefined': {
      const existing = state.lanes.get(event.data.lane.id);
      state.lanes.set(event.data.lane.id, {
        company_group: event.data.company_group,
        settings: event.data.lane,
        items: existing?.items ?? new Map(),
      });
      break;
    }
    case 'ItemDefined':
      state.lanes.get(event.data.lane_id)?.items.set(event.data.item.sku, event.data.item);
      break;
  }
  return state;
}

export function isMasterDataEvent(event: RecordedEvent): event is RecordedEvent & MasterDataEvent {
  return (MASTER_DATA_EVENT_TYPES as readonly string[]).includes(event.type);
}

export function foldMasterData(events: readonly RecordedEvent[]): MasterData {
  const state = initialMasterData();
  for (const event of events) if (isMasterDataEvent(event)) evolveMasterData(state, event);
  return state;
}

/** The lane of a company group that connects this supplier to this consignee, if any. */
export function findLane(state: MasterData, companyGroup: string, supplier: string, consignee: string): Lane | undefined {
  for (const lane of state.lanes.values()) {
    if (lane.company_group === companyGroup && lane.settings.supplier === supplier && lane.settings.consignee === consignee) return lane;
  }
  return undefined;
}
