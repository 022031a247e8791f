// The consolidation's planning, as I/O: a closed window planned (its orders together and each alone)
// and its decision recorded; an order planned alone; a planned window written out to its orders
// (the parent order, then each child's OrderPlanned). Which plan wins and each child's share are the
// rules of window-plan.ts and parent-order.ts. Each step is done by the replica that leases it
// (src/leases/planning-leases.ts); the others try again until the result is in the log, or the
// holder died and its lease ran out. Every step checks the log first, so doing it twice records
// nothing twice.
import type { EventStore } from '../eventstore/event-store.js';
import type { Log } from '../eventstore/follow-log.js';
import { utcTimestamp } from '../orders/clock.js';
import { handleOrderCommand, orderStateOf } from '../orders/handle-order-command.js';
import { orderStream, type RecordedPlan } from '../orders/order-events.js';
import type { AllocatedOrderId } from '../orders/order-id-allocator.js';
import { currentOrderIn, readOrderStream, submittedIn, type RecordedOrderEvent } from '../orders/read-order-stream.js';
import { compactPlan, expandPlan, type StoredPlan } from '../plan-contract/plan-storage.js';
import type { OrderPlan } from '../plan-contract/plan-types.js';
import type { PlanOrderInput, TogetherInput } from '../plan-contract/planner-input.js';
import type { TogetherPlans } from '../planner/plan-together.js';
import { plannerInput, togetherInput } from '../planning/planner-input.js';
import type { PlanningLeases } from '../leases/planning-leases.js';
import type { PlannerRunOutcome } from '../planning/planning-reactor.js';
import type { ConsolidationClosed, ConsolidationPlanned } from './consolidation-events.js';
import type { WindowMember } from './consolidation-workflow.js';
import { childPlan, mergedLane, parentOrderCommand } from './parent-order.js';
import { plannedAlone, plannedJointly, plansTogether, savesContainers } from './window-plan.js';
import { commandWindow, windowStateOf } from './window-stream.js';
import { plannedOrders } from './consolidation-decider.js';

export interface ConsolidationPlanner {
  // `group`: the orders' company group; the planner serves groups in turn
  plan(input: PlanOrderInput, group: string): Promise<OrderPlan>;
  planStored(input: PlanOrderInput, group: string): Promise<StoredPlan>;
  planTogether(input: TogetherInput, group: string): Promise<TogetherPlans>;
}

export interface WindowPlanningOptions {
  store: EventStore;
  planner: ConsolidationPlanner;
  leases: PlanningLeases;
  allocateOrderId: () => Promise<AllocatedOrderId>;
  log: Log;
  /** One per planner invocation, as the planning reactor counts them (orders_planner_runs_total). */
  onRun?: (outcome: PlannerRunOutcome) => void;
}

export type WriteOutOutcome = 'written' | 'replanned' | 'superseded';

type PlannedOrder = { stream: string; service_ref: string };

export class WindowPlanning {
  constructor(private readonly options: WindowPlanningOptions) {}

  /** Plans the closed window and records its decision, unless it is planned already. */
  async planWindow(closed: ConsolidationClosed['data']): Promise<void> {
    await this.leased(closed.consolidation, async () => {
      const state = windowStateOf(await this.options.store.readStream(closed.consolidation));
      if (state.status !== 'planned') await this.planLeased(closed.consolidation, closed.orders, 'RecordPlan');
    });
  }

  /** Plans an order on its own (one a window left out), unless it has its plan already. */
  async planAlone(stream: string): Promise<void> {
    const { planner } = this.options;
    await this.leased(stream, async () => {
      const history = await readOrderStream(this.options.store, stream);
      const submitted = currentOrderIn(history);
      if (!submitted) throw new Error(`consolidation: ${stream} holds no OrderSubmitted`);
      // planned by another replica, or amended or cancelled since (the planning reactor plans an amended order)
      if (orderStateOf(history).status !== 'submitted' || submitted.version !== 0) return;
      await this.counted(
        1,
        () => planner.planStored(plannerInput(submitted), submitted.company_group),
        (plan) => this.record(stream, { plan, planned_at: utcTimestamp() }),
      );
    });
  }

  /**
   * Writes a planned window out, under the window's lease: the parent order when together, then each
   * order's plan. Not while an order of the plan has left the window (amended, cancelled) and nothing is
   * written yet: then the window is planned again without it ('replanned'), and that plan is written out
   * in turn. A plan the window no longer holds as its newest is not written ('superseded'). An order that
   * leaves once the shipment is written dissolves it (revise).
   */
  async writeOut(planned: ConsolidationPlanned['data'], members: readonly WindowMember[]): Promise<WriteOutOutcome> {
    let outcome: WriteOutOutcome = 'written';
    await this.leased(planned.consolidation, async () => {
      const window = windowStateOf(await this.options.store.readStream(planned.consolidation));
      if (window.planned && JSON.stringify(window.planned) !== JSON.stringify(planned)) {
        outcome = 'superseded';
        return;
      }
      const orders = planned.orders ?? members.map(({ stream, service_ref }) => ({ stream, service_ref }));
      const histories = await Promise.all(orders.map((o) => readOrderStream(this.options.store, o.stream)));
      const parentWritten = planned.parent !== null && (await this.parentStream(planned, histories)) !== undefined;
      const left = orders.filter((_, i) => !inWindow(histories[i]!, planned.consolidation));
      if (planned.decision === 'together' && !parentWritten && left.length > 0) {
        this.options.log(`consolidation ${planned.consolidation}: ${refs(left)} left before the write-out; planned again without them`);
        await this.planLeased(
          planned.consolidation,
          orders.filter((o) => !left.includes(o)),
          'Replan',
        );
        outcome = 'replanned';
        return;
      }
      await this.writeLeased(planned, orders, histories);
      await this.reviseLeased(planned.consolidation);
    });
    return outcome;
  }

  /**
   * An order left the window (amended, cancelled): once its shipment went out (the parent order written),
   * the shipment is dissolved: the parent is cancelled and every other order's share withdrawn, so each
   * is planned again alone and no container keeps the cargo of the order that left. Before that the
   * write-out plans the window again instead; a window planned alone has nothing to dissolve.
   */
  async revise(consolidation: string): Promise<void> {
    await this.leased(consolidation, () => this.reviseLeased(consolidation));
  }

  private async reviseLeased(consolidation: string): Promise<void> {
    const { store } = this.options;
    const window = windowStateOf(await store.readStream(consolidation));
    const planned = window.planned;
    if (planned?.decision !== 'together' || !planned.parent) return;
    const orders = plannedOrders(window);
    const histories = await Promise.all(orders.map((o) => readOrderStream(store, o.stream)));
    const parent = planned.parent.service_ref;
    const parentStream = await this.parentStream(planned, histories);
    if (parentStream === undefined) return; // not written out: the write-out plans again
    const shipped = histories.map((history) => orderStateOf(history).consolidated_into === parent);
    // one still waiting for its share (a write-out cut short) has not left: the write-out records it, and this runs again after
    const left = orders.filter((_, i) => !shipped[i] && !inWindow(histories[i]!, consolidation));
    if (left.length === 0) return;
    const reason = `The consolidated shipment ${parent} was dissolved: ${refs(left)} left it after its packing instructions went out.`;
    const at = utcTimestamp();
    const dissolved = await handleOrderCommand(store, parentStream, { type: 'DissolveShipment', data: { reason, cancelled_at: at } });
    if (!dissolved.ok) throw new Error(`consolidation: dissolving ${parent}: ${JSON.stringify(dissolved.errors)}`);
    for (const [i, o] of orders.entries()) {
      if (!shipped[i]) continue;
      const withdrawn = await handleOrderCommand(store, o.stream, {
        type: 'WithdrawPlan',
        data: { shipment: parent, reason, withdrawn_at: at },
      });
      if (!withdrawn.ok) throw new Error(`consolidation: withdrawing the plan of ${o.service_ref}: ${JSON.stringify(withdrawn.errors)}`);
    }
    if (dissolved.events.length > 0) this.options.log(reason, undefined, 'warn');
  }

  /** The parent's stream once it is written, else undefined. */
  private async parentStream(
    planned: ConsolidationPlanned['data'],
    histories: readonly RecordedOrderEvent[][],
  ): Promise<string | undefined> {
    const group = currentOrderIn(histories[0] ?? [])?.company_group;
    if (!planned.parent || group === undefined) return undefined;
    const stream = orderStream(group, planned.parent.reference);
    return (await this.options.store.readLastEvent(stream)) ? stream : undefined;
  }

  private async writeLeased(
    planned: ConsolidationPlanned['data'],
    orders: readonly PlannedOrder[],
    histories: RecordedOrderEvent[][],
  ): Promise<void> {
    if (planned.decision === 'together' && planned.together && planned.parent) {
      const children = histories.map((history, i) => {
        const child = submittedIn(history);
        if (!child) throw new Error(`consolidation: ${orders[i]!.stream} holds no OrderSubmitted`);
        return child;
      });
      const together = expandPlan(planned.together);
      const parentStream = orderStream(children[0]!.company_group, planned.parent.reference);
      // on a replay after a crash the parent is stored already, and the decider records nothing
      const parent = await handleOrderCommand(
        this.options.store,
        parentStream,
        parentOrderCommand(planned.parent, children, together, planned.planned_at),
      );
      if (!parent.ok)
        throw new Error(
          `consolidation: the parent order ${planned.parent.service_ref} in ${parentStream}: ${JSON.stringify(parent.errors)}`,
        );
      for (const [i, child] of children.entries()) {
        const plan = childPlan(together, planned.pallet_owners, child.service_ref, planned.alone[i]);
        await this.record(orders[i]!.stream, {
          plan: compactPlan(plan),
          planned_at: planned.planned_at,
          consolidated_into: planned.parent.service_ref,
        });
      }
    } else {
      for (const [i, o] of orders.entries()) await this.record(o.stream, { plan: planned.alone[i]!, planned_at: planned.planned_at });
    }
  }

  private async planLeased(id: string, listed: readonly PlannedOrder[], command: 'RecordPlan' | 'Replan'): Promise<void> {
    const { planner, store, log } = this.options;
    // only the orders still in the window: one amended or cancelled since its closing is not planned with it
    const histories = await Promise.all(listed.map((o) => readOrderStream(store, o.stream)));
    const kept = listed.filter((_, i) => inWindow(histories[i]!, id));
    const orders = kept.map((o) => {
      const submitted = submittedIn(histories[listed.indexOf(o)]!);
      if (!submitted) throw new Error(`consolidation: ${o.stream} holds no OrderSubmitted`);
      return submitted;
    });
    const planned_at = utcTimestamp();
    // Alone, one planner run per order; together, one run for the window.
    const together = plansTogether(orders.length);
    await this.counted(
      together ? 1 : orders.length,
      async (): Promise<ConsolidationPlanned['data']> => {
        if (!together)
          return plannedAlone(id, await Promise.all(orders.map((o) => planner.plan(plannerInput(o), o.company_group))), planned_at, kept);
        const plans = await planner.planTogether(togetherInput(mergedLane(orders), orders), orders[0]!.company_group);
        const parent = savesContainers(plans) ? await this.options.allocateOrderId() : undefined;
        return plannedJointly(id, kept, plans, parent, planned_at);
      },
      async (data) => {
        const outcome =
          data.decision === 'together'
            ? `planned together in ${data.containers_together} container(s) (${data.containers_alone} alone), parent ${data.parent!.service_ref}`
            : `planned alone (${data.containers_alone} container(s); together ${data.containers_together ?? '-'})`;
        log(`consolidation ${id}: ${orders.length} order(s) ${outcome}`);
        return (await commandWindow(store, id, { type: command, data })).position !== undefined;
      },
    );
  }

  /** Records the order's plan; false when it had one already (another replica's), and nothing was written. */
  // Always for the order as submitted (version 0): one amended or cancelled since left the window, and the decider records nothing for it.
  private async record(stream: string, data: { plan: RecordedPlan; planned_at: string; consolidated_into?: string }): Promise<boolean> {
    const result = await handleOrderCommand(this.options.store, stream, { type: 'RecordPlanResult', data: { ...data, version: 0 } });
    if (!result.ok) throw new Error(`consolidation: recording the plan of ${stream}: ${JSON.stringify(result.errors)}`);
    return result.events.length > 0;
  }

  /** Runs the planner `runs` times through `plan`, counting each run by what became of its result. */
  private async counted<T>(runs: number, plan: () => Promise<T>, keep: (result: T) => Promise<boolean>): Promise<void> {
    let result: T;
    try {
      result = await plan();
    } catch (error) {
      for (let i = 0; i < runs; i++) this.options.onRun?.('failed');
      throw error;
    }
    const stored = await keep(result);
    for (let i = 0; i < runs; i++) this.options.onRun?.(stored ? 'stored' : 'discarded');
  }

  /** Runs a planning step while holding `key`; while another replica holds it, fails, to be tried again. */
  private async leased(key: string, step: () => Promise<void>): Promise<void> {
    const held = await this.options.leases.whileHeld(key, step);
    if (!held.held) throw new Error(`${key} is being planned by another replica; looking again later`);
  }
}

/** Whether the order still waits in window `id` for its plan: it joined it, and was neither amended nor cancelled since. */
function inWindow(history: readonly RecordedOrderEvent[], id: string): boolean {
  const state = orderStateOf(history);
  return state.consolidation === id && state.status === 'submitted' && state.version === 0;
}

function refs(orders: readonly PlannedOrder[]): string {
  return orders.map((o) => o.service_ref).join(', ');
}
