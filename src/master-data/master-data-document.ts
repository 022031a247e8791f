// The bootstrap document of ../shared/spec/master-data.md after validation. Numbers are in the
// lane's units exactly as given.
import type { ContainerCode } from '../plan-contract/container-codes.js';
import type { RoadProfileSpec } from '../plan-contract/road-profile.js';
import type { TransportationMode } from '../plan-contract/transportation-modes.js';

export type LengthUnit = 'mm' | 'cm' | 'in';
export type WeightUnit = 'kg' | 'lb';

export interface PalletTypeDocument {
  code: string;
  length: number;
  width: number;
  height: number;
  weight: number;
  max_height: number;
  max_weight: number;
}

export interface ItemDocument {
  sku: string;
  length: number;
  width: number;
  height: number;
  weight: number;
  upright: boolean;
  /** Lane weight unit: the most one unit may carry above it. Absent: no limit (kept absent, so items defined before stay as they were). */
  max_load_on_top?: number;
  /** false: nothing stands on a unit. Absent: true. */
  stackable?: boolean;
}

export interface LaneDocument {
  id: number;
  supplier: string;
  consignee: string;
  transportation_modes: string[];
  units: { length: LengthUnit; weight: WeightUnit };
  pallet_types: PalletTypeDocument[];
  container_codes: ContainerCode[];
  items: ItemDocument[];
  /** Seconds a consolidation window stays open (1 to 604,800); absent: no consolidation. */
  consolidation_window_seconds?: number;
  /** The roads its containers travel (src/plan-contract/road-profile.ts); absent: no road rule. */
  road_profile?: RoadProfileSpec;
  /** The modes held to road_profile; absent with a profile: TruckFTL only. */
  road_profile_modes?: TransportationMode[];
}

export interface WebhookDocument {
  url: string;
  secret: string;
}

export interface CompanyGroupDocument {
  name: string;
  api_keys: { name: string; key: string }[];
  notification_emails: string[];
  webhooks: WebhookDocument[];
  lanes: LaneDocument[];
}

export interface MasterDataDocument {
  company_groups: CompanyGroupDocument[];
}
