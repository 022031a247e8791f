// Orders of one consolidation planned together: each order's pallets are built from its
// own units only (its plan alone), then the pallets, pre-built pallets and loose boxes of all the
// orders are loaded into the containers any of them asked for, up to the sum of their counts.
// Both answers come back, so that the caller can keep the joint plan only when it saves containers.
import type { ContainerRow, TogetherInput } from '../plan-contract/planner-input.js';
import { loadOrderContainers, rowRefs } from './container-loading.js';
import { DEFAULT_SEED, planOrder } from './plan-order.js';
import type { PlannerWasm } from './planner-wasm.js';
import type { OrderPlan, PlanLimits, PlannedPallet } from '../plan-contract/plan-types.js';

export interface TogetherPlans {
  /** Each order planned alone, in input order. */
  alone: OrderPlan[];
  /** All of them in shared containers; every placement and unplaced row names its order. */
  together: OrderPlan;
  /** Each order's own pallets in the joint plan (refs numbered across the orders). */
  palletsOf: PlannedPallet[][];
}

/** Container types any order asked for, each up to the sum of their counts. */
export function sharedContainers(orders: readonly (readonly ContainerRow[])[]): ContainerRow[] {
  const counts = new Map<ContainerRow['code'], number>();
  for (const rows of orders) for (const c of rows) counts.set(c.code, (counts.get(c.code) ?? 0) + c.count);
  return [...counts].map(([code, count]) => ({ code, count }));
}

export function planTogether(wasm: PlannerWasm, input: TogetherInput, limits: PlanLimits): TogetherPlans {
  const t0 = performance.now();
  const share = { ...limits, timeLimitMs: limits.timeLimitMs / (input.orders.length + 1) };
  const alone = input.orders.map((o) => planOrder(wasm, o.input, share));

  // pallets renumbered AP1, AP2, ... across the orders, so that every ref in a container is one cargo
  let next = 0;
  const palletsOf = alone.map((plan) => plan.pallets.map((p) => ({ ...p, pallet_index: `AP${++next}` })));
  const owner = new Map<string, string>();
  palletsOf.forEach((pallets, i) => pallets.forEach((p) => owner.set(p.pallet_index, input.orders[i]!.service_ref)));
  // pre-built and loose-box refs as the loader numbers them over all the orders' rows
  for (const kind of ['pre_built', 'loose_box'] as const) {
    const rows = input.orders.flatMap(({ service_ref, input: o }) =>
      (kind === 'pre_built' ? o.preBuilts : o.looseBoxes).map((row) => ({ row, service_ref })),
    );
    rowRefs(rows.map(({ row }) => row)).forEach((refs, i) => {
      for (const ref of refs) owner.set(`${kind}:${ref}`, rows[i]!.service_ref);
    });
  }

  const loaded = loadOrderContainers(
    wasm,
    {
      containers: sharedContainers(input.orders.map((o) => o.input.containers)),
      pallets: palletsOf.flat(),
      preBuilts: input.orders.flatMap((o) => o.input.preBuilts),
      looseBoxes: input.orders.flatMap((o) => o.input.looseBoxes),
      // one lane and one mode in a window (consolidation-rule.ts): one road for all of them
      road: input.orders[0]?.input.road,
    },
    { ...limits, timeLimitMs: Math.max(1, limits.timeLimitMs - (performance.now() - t0)) },
    DEFAULT_SEED,
  );
  const ownerOf = (kind: string, ref: string): string => (kind === 'pallet' ? owner.get(ref) : owner.get(`${kind}:${ref}`)) ?? '';
  const containers = loaded.containers.map((c) => ({
    ...c,
    placements: c.placements.map((p) => ({ ...p, order: ownerOf(p.kind, p.ref) })),
  }));
  const unitsUnplaced = alone.flatMap((plan, i) =>
    plan.unplaced.filter((u) => u.kind === 'unit').map((u) => ({ ...u, order: input.orders[i]!.service_ref })),
  );
  const pallets = palletsOf.flat();
  const together: OrderPlan = {
    pallets,
    containers,
    unplaced: [...unitsUnplaced, ...loaded.unplaced.map((u) => ({ ...u, order: ownerOf(u.kind, u.ref) }))],
    metrics: {
      planner_ms: performance.now() - t0,
      pallet_count: pallets.length,
      container_count: containers.length,
      pallet_lower_bound: alone.reduce((s, p) => s + p.metrics.pallet_lower_bound, 0),
      units: alone.reduce((s, p) => s + p.metrics.units, 0),
      units_palletized: alone.reduce((s, p) => s + p.metrics.units_palletized, 0),
      time_limited: loaded.timeLimited || alone.some((p) => p.metrics.time_limited),
    },
  };
  return { alone, together, palletsOf };
}
