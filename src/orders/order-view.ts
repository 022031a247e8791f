// The order's read representation (spec 2.1): what retrieve and list return, field for field.
import type { LooseBox, OrderItem, PreBuilt, ShipmentType } from './submit-order-payload.js';

export const ORDER_STATUSES = ['submitted', 'planned', 'planning_failed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface OrderView {
  id: number;
  service_ref: string;
  reference: string;
  customer_notes: string | null;
  shipment_type: ShipmentType;
  lane: number;
  transport_name: string;
  packing_instructions_downloaded: boolean;
  /** Where the order is in its life (docs/decisions.md, States). */
  status: OrderStatus;
  /** Why planning failed; null unless status is planning_failed. */
  planning_failure_reason: string | null;
  order_items: OrderItem[];
  pre_builts: PreBuilt[];
  loose_boxes: LooseBox[];
  /** UTC, ISO 8601 without zone, microseconds: 2026-11-20T09:15:02.123456 */
  created_at: string;
  updated_at: string;
  /** A child of a consolidated shipment: the parent's service_ref; null otherwise. */
  consolidated_into: string | null;
  /** A consolidated shipment: its children's service_refs; empty otherwise. */
  consolidated_orders: string[];
  /** The reason given when it was cancelled; null unless status is cancelled (or none was given). */
  cancellation_reason: string | null;
  /**
   * The revision of the order's stream (its events counted from 0): retrieve's ETag, and what an amend's
   * If-Match names. Kept the view's last field, so that revisionOfViewJson finds it without parsing.
   */
  revision: number;
}

const REVISION_KEY = '"revision":';

/** The revision of a view as retrieve sends it (its last field), without parsing the whole text; undefined when it has none. */
export function revisionOfViewJson(viewJson: string): number | undefined {
  const at = viewJson.lastIndexOf(REVISION_KEY);
  if (at < 0) return undefined;
  const revision = Number.parseInt(viewJson.slice(at + REVISION_KEY.length), 10);
  return Number.isSafeInteger(revision) ? revision : undefined;
}
