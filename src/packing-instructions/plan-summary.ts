// The figures of the first page, worked out from the plan and the order as submitted, so that a
// shortfall (submitted but not loaded) is visible before anyone reads the detail pages.
import type { SubmitOrderPayload } from '../orders/submit-order-payload.js';
import type { OrderPlan, PlacementKind } from './order-plan.js';

export interface PlanSummary {
  /** Containers used, by code, in first-use order: [["40ft-HC", 2], ["20ft", 1]]. */
  containersByCode: [code: string, count: number][];
  palletsBuilt: number;
  loaded: Record<PlacementKind, number>;
  preBuiltsSubmitted: number;
  looseBoxesSubmitted: number;
  loadedWeightG: number;
}

export function summarizePlan(order: SubmitOrderPayload, plan: OrderPlan): PlanSummary {
  const byCode = new Map<string, number>();
  const loaded: Record<PlacementKind, number> = { pallet: 0, pre_built: 0, loose_box: 0 };
  let loadedWeightG = 0;
  for (const container of plan.containers) {
    byCode.set(container.code, (byCode.get(container.code) ?? 0) + 1);
    for (const placement of container.placements) {
      loaded[placement.kind] += 1;
      loadedWeightG += placement.weight_g;
    }
  }
  return {
    containersByCode: [...byCode],
    palletsBuilt: plan.pallets.length,
    loaded,
    preBuiltsSubmitted: order.pre_builts.reduce((sum, p) => sum + p.count, 0),
    looseBoxesSubmitted: order.loose_boxes.reduce((sum, b) => sum + b.count, 0),
    loadedWeightG,
  };
}

export interface PalletLocation {
  containerCode: string;
  containerIndex: number;
  loadingOrder: number;
}

/** Where each service-built pallet goes, by pallet_index, so its page can say which container. */
export function locatePallets(plan: OrderPlan): Map<string, PalletLocation> {
  const located = new Map<string, PalletLocation>();
  for (const container of plan.containers) {
    for (const placement of container.placements) {
      if (placement.kind !== 'pallet') continue;
      located.set(placement.ref, { containerCode: container.code, containerIndex: container.index, loadingOrder: placement.loading_order });
    }
  }
  return located;
}
