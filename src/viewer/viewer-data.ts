// What the viewer page is given: the load plan as the API shows it, the colours the PDF uses, and
// each container's centre-of-gravity limits, all worked out here so the browser only draws.
import type { LengthUnit, WeightUnit } from '../master-data/master-data-document.js';
import type { OrderSubmitted } from '../orders/order-events.js';
import { MIXED_PALLET_COLOUR, planCargoColours, rowName } from '../packing-instructions/cargo-colours.js';
import { cogLimits } from '../planner/center-of-gravity.js';
import type { OrderPlan } from '../plan-contract/plan-types.js';
import { loadPlanOf, type LoadPlan } from '../load-plan/load-plan.js';

export interface ViewerData {
  load_plan: Omit<LoadPlan, 'viewer_url'>;
  supplier: string;
  consignee: string;
  units: { length: LengthUnit; weight: WeightUnit };
  /** Fill colour of each placement (by ref) and of each SKU (pallet view). */
  colours: { placements: Record<string, string>; skus: Record<string, string> };
  /** Legend: what each colour stands for, in the order colours were handed out. */
  legend: { label: string; colour: string }[];
  /** Per container, in the order of load_plan.containers: inclusive bounds in mm. */
  cog_limits_mm: { x: [number, number]; y: [number, number] }[];
  /** SKUs on each service-built pallet, by pallet ref. */
  pallet_skus: Record<string, string[]>;
}

const OTHER_ORDERS_COLOUR = '#c9c9c9';

const LEGEND_KIND: Record<string, string> = { sku: 'SKU', pre_built: 'Pre-built pallet', loose_box: 'Loose box' };

export function viewerDataOf(submitted: OrderSubmitted['data'], plan: OrderPlan): ViewerData {
  const { viewer_url: _, ...loadPlan } = loadPlanOf({ service_ref: submitted.service_ref, reference: submitted.order.reference }, plan, '');
  const colours = planCargoColours(plan);
  const palletColours = new Map(plan.pallets.map((pallet) => [pallet.pallet_index, colours.pallet(pallet)]));
  const placements: Record<string, string> = {};
  for (const container of plan.containers) {
    for (const p of container.placements) {
      placements[p.ref] = p.kind === 'pallet' ? (palletColours.get(p.ref) ?? colours.of('sku', p.ref)) : colours.of(p.kind, rowName(p.ref));
    }
  }
  const skus: Record<string, string> = {};
  const legend: ViewerData['legend'] = [];
  for (const [key, colour] of colours.entries()) {
    const [kind, ...name] = key.split(':');
    const label = name.join(':');
    if (kind === 'sku') skus[label] = colour;
    legend.push({ label: `${LEGEND_KIND[kind ?? ''] ?? kind}: ${label}`, colour });
  }
  if ([...palletColours.values()].includes(MIXED_PALLET_COLOUR))
    legend.push({ label: 'Pallet of mixed SKUs', colour: MIXED_PALLET_COLOUR });
  // A child of a consolidated shipment sees the shared containers with its own cargo in colour and the
  // other orders' cargo grey; the parent sees everything in colour.
  if (submitted.consolidated_orders === undefined) {
    let others = 0;
    for (const container of plan.containers) {
      for (const p of container.placements) {
        if (p.order === undefined || p.order === submitted.service_ref) continue;
        placements[p.ref] = OTHER_ORDERS_COLOUR;
        others += 1;
      }
    }
    if (others > 0) legend.push({ label: 'Other orders in the shared container', colour: OTHER_ORDERS_COLOUR });
  }
  return {
    load_plan: loadPlan,
    supplier: submitted.order.supplier_name,
    consignee: submitted.order.consignee_name,
    units: submitted.lane.units,
    colours: { placements, skus },
    legend,
    cog_limits_mm: plan.containers.map((container) => cogLimits(container.inner_mm)),
    pallet_skus: Object.fromEntries(
      plan.pallets.map((pallet) => [pallet.pallet_index, [...new Set(pallet.units.map((unit) => unit.sku))]]),
    ),
  };
}
