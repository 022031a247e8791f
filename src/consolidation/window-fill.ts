// How full a window is: the cargo its orders bring against the room they asked for. A window closes
// early once the cargo takes FULL_SHARE of that room (consolidation-workflow.ts): waiting longer
// could add no order that still fits.
import type { OrderSubmitted } from '../orders/order-events.js';
import { containerSpec } from '../planner/containers.js';
import { plannerInput } from '../planning/planner-input.js';

/** A window closes early when its orders' cargo takes this share of its containers' volume. */
export const FULL_SHARE = 0.85;

/** Whether cargo of this volume fills containers of this volume as far as a window waits for. */
export function fills(cargo: number, room: number): boolean {
  return cargo >= FULL_SHARE * room;
}

/** The order's cargo volume in mm³: units, pre-built pallets and loose boxes, as the planner sees them. */
export function cargoVolume(submitted: OrderSubmitted['data']): number {
  const input = plannerInput(submitted);
  const items = new Map(input.items.map((i) => [i.sku, i]));
  let volume = 0;
  for (const line of input.lines) {
    const item = items.get(line.sku);
    if (item) volume += line.units * item.l * item.w * item.h;
  }
  for (const b of [...input.preBuilts, ...input.looseBoxes]) volume += b.count * b.l * b.w * b.h;
  return volume;
}

/** The volume of the largest container type the order asked for, times the count it asked for. */
export function containersVolume(submitted: OrderSubmitted['data']): number {
  let best = 0;
  for (const c of submitted.order.order_containers) {
    const spec = containerSpec(c.code);
    if (spec) best = Math.max(best, spec.inner_mm.l * spec.inner_mm.w * spec.inner_mm.h * c.count);
  }
  return best;
}
