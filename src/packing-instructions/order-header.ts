// Page 1: which order this is, and the summary a shift lead checks first, with anything the plan
// could not load set apart in red so that it cannot be missed.
import type { OrderSubmitted } from '../orders/order-events.js';
import { formatTotalWeight } from './lane-units.js';
import type { OrderPlan, Unplaced } from './order-plan.js';
import { compressRuns } from './box-labels.js';
import { ALERT, drawText, INK, MUTED, textHeight, type PageFlow } from './page-flow.js';
import { summarizePlan } from './plan-summary.js';
import { drawTable } from './tables.js';
import { describeUnplacedKind, describeUnplacedReason } from './unplaced-reasons.js';

const SHIPMENT_TYPE: Record<string, string> = {
  normal: 'Normal',
  dangerous_goods: 'DANGEROUS GOODS (do not consolidate)',
  dedicated_container: 'Dedicated container',
};

const UNIT_NAME: Record<string, string> = { mm: 'mm', cm: 'cm', in: 'inches', kg: 'kg', lb: 'pounds' };

/** "2026-11-20T09:15:02.123456" (UTC, no zone) -> "2026-11-20 09:15:02 UTC". */
export function formatUtc(timestamp: string | Date): string {
  const iso = typeof timestamp === 'string' ? timestamp : timestamp.toISOString();
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

export function drawOrderHeader(flow: PageFlow, submitted: OrderSubmitted['data'], generatedAt: Date): void {
  const { order, lane } = submitted;
  flow.startSection('Order and summary');
  drawText(flow.doc, submitted.service_ref, flow.left, flow.y + 4, flow.width, { size: 16, bold: true, align: 'right' });
  flow.paragraph('Packing instructions', { size: 24, bold: true });
  flow.gap(8);

  const fields: [string, string][] = [
    ['Service ref', submitted.service_ref],
    ['Reference', order.reference],
    ['Supplier -> consignee', `${order.supplier_name}  ->  ${order.consignee_name}`],
    ['Transport mode', order.transportation_mode],
    ['Shipment type', SHIPMENT_TYPE[order.shipment_type] ?? order.shipment_type],
    ['Lane', `${lane.id} (lengths in ${UNIT_NAME[lane.units.length]}, weights in ${UNIT_NAME[lane.units.weight]})`],
    ['Submitted at', formatUtc(submitted.submitted_at)],
    ['Generated at', formatUtc(generatedAt)],
  ];
  if (order.customer_notes) fields.push(['Customer notes', order.customer_notes]);
  drawFields(flow, fields);
  flow.gap(10);
}

export function drawPlanSummary(flow: PageFlow, submitted: OrderSubmitted['data'], plan: OrderPlan): void {
  const summary = summarizePlan(submitted.order, plan);
  const weightUnit = submitted.lane.units.weight;
  flow.heading('Summary');
  const containers = summary.containersByCode.map(([code, count]) => `${count} x ${code}`).join(', ') || 'none';
  const unloadedPallets = summary.palletsBuilt - summary.loaded.pallet;
  const emptyBooked = plan.containers.filter((c) => c.placements.length === 0).length;
  drawFields(flow, [
    ['Containers used', `${plan.containers.length} (${containers})${emptyBooked > 0 ? `, ${emptyBooked} booked and not needed` : ''}`],
    [
      'Service-built pallets',
      `${summary.palletsBuilt} built, ${summary.loaded.pallet} loaded${unloadedPallets > 0 ? `, ${unloadedPallets} NOT loaded` : ''}`,
    ],
    ['Pre-built pallets', `${summary.loaded.pre_built} loaded of ${summary.preBuiltsSubmitted} submitted`],
    ['Loose boxes', `${summary.loaded.loose_box} loaded of ${summary.looseBoxesSubmitted} submitted`],
    ['Total loaded weight', formatTotalWeight(summary.loadedWeightG, weightUnit)],
  ]);
  flow.gap(10);

  if (plan.unplaced.length === 0) {
    flow.paragraph('Everything in this order is in the load plan.', { size: 11, bold: true, color: '#1b5e20' });
    return;
  }
  const count = plan.unplaced.reduce((sum, u) => sum + u.count, 0);
  const banner = `NOT LOADED: ${count} item(s) could not be placed in any container. Do not ship without checking these.`;
  const bannerHeight = textHeight(flow.doc, banner, flow.width - 16, { size: 11, bold: true }) + 12;
  flow.ensureRoom(bannerHeight + 60);
  flow.doc.rect(flow.left, flow.y, flow.width, bannerHeight).fill(ALERT);
  drawText(flow.doc, banner, flow.left + 8, flow.y + 6, flow.width - 16, { size: 11, bold: true, color: '#ffffff' });
  flow.y += bannerHeight + 4;
  drawTable(flow, {
    columns: [
      { header: 'Kind', weight: 16 },
      { header: 'What', weight: 22 },
      { header: 'Count', weight: 7, align: 'right' },
      { header: 'Reason', weight: 36 },
    ],
    rows: unplacedRows(plan.unplaced).map((u) => [
      describeUnplacedKind(u.kind),
      u.ref,
      String(u.count),
      describeUnplacedReason(u.reason, u.detail),
    ]),
    rowStyle: () => ({ color: ALERT, bold: true }),
    fontSize: 9,
  });
}

/** Service-built pallets left behind for one reason are one row ("AP166-AP234"), not one row each. */
export function unplacedRows(unplaced: readonly Unplaced[]): Unplaced[] {
  const rows: Unplaced[] = [];
  const pallets = new Map<string, Unplaced[]>();
  for (const u of unplaced) {
    if (u.kind !== 'pallet' || !/^AP\d+$/.test(u.ref)) rows.push(u);
    else {
      const same = pallets.get(u.reason);
      if (same) same.push(u);
      else pallets.set(u.reason, [u]);
    }
  }
  for (const [reason, group] of pallets) {
    const numbers = group.map((u) => Number(u.ref.slice(2)));
    const ref = compressRuns(numbers)
      .split(',')
      .map((run) =>
        run
          .split('-')
          .map((n) => `AP${n}`)
          .join('-'),
      )
      .join(', ');
    rows.push({ kind: 'pallet', ref, count: group.reduce((sum, u) => sum + u.count, 0), reason: reason as Unplaced['reason'] });
  }
  return rows;
}

/** Tallest a value may be: longer notes are cut with an ellipsis (the order itself keeps them whole). */
const MAX_VALUE_HEIGHT = 180;

/** Label / value pairs, values wrapping in their own column. */
function drawFields(flow: PageFlow, fields: [string, string][]): void {
  const labelWidth = 130;
  const valueX = flow.left + labelWidth;
  const valueWidth = flow.width - labelWidth;
  const valueStyle = { size: 10, bold: true, color: INK, maxHeight: MAX_VALUE_HEIGHT };
  for (const [label, value] of fields) {
    const height =
      Math.max(textHeight(flow.doc, value, valueWidth, valueStyle), textHeight(flow.doc, label, labelWidth - 8, { size: 10 })) + 3;
    flow.ensureRoom(height);
    drawText(flow.doc, label, flow.left, flow.y, labelWidth - 8, { size: 10, color: MUTED });
    drawText(flow.doc, value, valueX, flow.y, valueWidth, valueStyle);
    flow.y += height;
  }
}
