// The consolidation's I/O around its workflow (consolidation-workflow.ts, where every rule is): it
// follows the log and hands each order submitted and each window event to the workflow, and carries
// out what the workflow decides: reads an order's stream, appends to a window's stream or an order's,
// arms and clears the windows' timers (a timer that fires hands the window's time-out to the
// workflow), plans (window-planning.ts), and moves the checkpoint (order-progress.ts). Everything it
// decides is an event: the order joins a window (order stream), the window opens, closes and is
// planned (its own stream, consolidation-events.ts), then the parent order and each child's
// OrderPlanned are written from the stored decision. Every step is idempotent, so a replay after a
// crash redoes what is missing and nothing twice.
// Every replica follows the windows; the planning of a closed window (and of an order left out of
// one) is done by the replica that leases it (src/leases/planning-leases.ts).
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { checkpointWriter } from '../checkpoints/checkpoint-writer.js';
import { isIgnored, stepWorkflow } from '../decider/workflow.js';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.js';
import { followLog, type Follower, type Log } from '../eventstore/follow-log.js';
import { utcTimestamp } from '../orders/clock.js';
import { handleOrderCommand, orderStateOf } from '../orders/handle-order-command.js';
import { awaitsPlan, type JoinConsolidation } from '../orders/order-decider.js';
import { isOrderEvent, readOrderStream } from '../orders/read-order-stream.js';
import { CatchUp } from './catch-up.js';
import { CONSOLIDATION_EVENT_TYPES, isConsolidationEvent, type ConsolidationOpened } from './consolidation-events.js';
import {
  awaitsWindowPlan,
  consolidationWorkflow,
  type ConsolidationInput,
  type ConsolidationOutput,
  type SubmittedOrder,
} from './consolidation-workflow.js';
import { OrderProgress } from './order-progress.js';
import { WindowPlanning, type WindowPlanningOptions } from './window-planning.js';
import { WindowSteps } from './window-steps.js';
import { commandWindow } from './window-stream.js';
import { WindowTimers } from './window-timers.js';

export type { ConsolidationPlanner } from './window-planning.js';

const CONSUMER = 'consolidation';

/** With no batch for this long after a start, the reactor counts as caught up with the log (catch-up.ts). */
const CATCH_UP_IDLE_MS = 250;

export interface ConsolidationReactorOptions extends WindowPlanningOptions {
  checkpoints: CheckpointStore;
  /** Epoch ms; tests move it. */
  now?: () => number;
}

export interface ConsolidationReactor {
  stop(): Promise<void>;
}

export async function startConsolidationReactor(options: ConsolidationReactorOptions): Promise<ConsolidationReactor> {
  const { store, checkpoints, log } = options;
  // Unknown when the log cannot be asked now: then only the idle rule ends the catch-up.
  const startHead = await store.headPosition().then(
    (head) => head ?? 0n,
    () => undefined,
  );
  const consolidation = new Consolidation(options, startHead);
  const follower = await followLog({
    store,
    name: 'consolidation reactor',
    loadCheckpoint: () => checkpoints.load(CONSUMER),
    retryDelayMs: 1000,
    types: ['OrderSubmitted', 'OrderAmended', 'OrderCancelled', ...CONSOLIDATION_EVENT_TYPES],
    handle: (events) => consolidation.handle(events),
    log,
  });
  // A log with nothing to read back since the checkpoint brings no batch: caught up once it stays quiet.
  consolidation.started();
  return { stop: () => consolidation.stop(follower) };
}

class Consolidation {
  private state = consolidationWorkflow.initialState();
  private lastHandled: bigint | undefined;
  private stopping = false;
  private readonly store: EventStore;
  private readonly timers: WindowTimers;
  private readonly steps: WindowSteps;
  private readonly catchUp: CatchUp;
  private readonly progress: OrderProgress;
  private readonly planning: WindowPlanning;

  constructor(options: ConsolidationReactorOptions, startHead: bigint | undefined) {
    const log: Log = options.log;
    this.store = options.store;
    this.timers = new WindowTimers(
      options.now ?? Date.now,
      (consolidation) => void this.run({ type: 'TimeOutWindow', data: { consolidation } }),
    );
    this.steps = new WindowSteps(log);
    this.catchUp = new CatchUp(startHead, CATCH_UP_IDLE_MS, () => void this.run({ type: 'EndCatchUp' }));
    const checkpoint = checkpointWriter(options.checkpoints, CONSUMER, (error) =>
      log('consolidation: saving the checkpoint failed', error, 'warn'),
    );
    this.progress = new OrderProgress(checkpoint);
    this.planning = new WindowPlanning(options);
  }

  started(): void {
    this.catchUp.awaitIdle();
  }

  /** A batch of the log; it comes again after a failure (or a resubscription), and what was handled stays handled. */
  async handle(events: readonly RecordedEvent[]): Promise<void> {
    this.timers.hold();
    this.catchUp.batchBegins();
    try {
      for (const event of events) {
        if (this.stopping) return;
        if (this.lastHandled !== undefined && event.position <= this.lastHandled) continue;
        if (isOrderEvent(event, 'OrderSubmitted')) {
          this.progress.begin(event.position);
          await this.run({ type: 'OrderSubmitted', data: { stream: event.stream, position: event.position, submitted: event.data } });
        } else if ((isOrderEvent(event, 'OrderAmended') || isOrderEvent(event, 'OrderCancelled')) && event.data.left_window) {
          // an order that leaves its window: the checkpoint stays before it until its window is revised
          this.progress.begin(event.position);
          await this.run({
            type: 'OrderLeft',
            data: { consolidation: event.data.left_window, stream: event.stream, position: event.position },
          });
        } else if (isConsolidationEvent(event)) {
          await this.run(event);
        }
        this.lastHandled = event.position;
      }
    } finally {
      this.timers.release();
      this.catchUp.batchEnded(this.lastHandled);
    }
  }

  async stop(follower: Follower): Promise<void> {
    this.stopping = true;
    const stepsEnded = this.steps.stop();
    const saved = this.progress.stop();
    this.timers.stop();
    this.catchUp.stop();
    await follower.stop();
    await stepsEnded;
    await saved;
  }

  /** Decides on one input, records the decision, and carries out its outputs in order. */
  private async run(input: ConsolidationInput): Promise<void> {
    const { state, decision } = stepWorkflow(consolidationWorkflow, this.state, input);
    this.state = state;
    if (isIgnored(decision)) return;
    for (const output of decision) {
      const answered = this.carryOut(output);
      if (answered) await answered;
    }
  }

  /** An output's I/O; a promise for the steps whose answer goes back to the workflow before the next input. */
  private carryOut(output: ConsolidationOutput): Promise<void> | undefined {
    switch (output.type) {
      case 'ReadOrder':
        return this.readOrder(output.data);
      case 'OpenWindow':
        return this.openWindow(output.data);
      case 'JoinWindow':
        return this.joinWindow(output.data);
      case 'CloseWindow': {
        const { consolidation, reason, orders } = output.data;
        this.steps.after(consolidation, async () => {
          await commandWindow(this.store, consolidation, {
            type: 'Close',
            data: { consolidation, reason, closed_at: utcTimestamp(), orders },
          });
        });
        return undefined;
      }
      case 'PlanWindow': {
        const closed = output.data;
        this.steps.after(closed.consolidation, async () => {
          // planned by another replica meanwhile: its ConsolidationPlanned brings the write-out
          if (awaitsWindowPlan(this.state, closed.consolidation)) await this.planning.planWindow(closed);
        });
        return undefined;
      }
      case 'PlanAlone': {
        const { consolidation, stream, position } = output.data;
        this.steps.after(consolidation, async () => {
          await this.planning.planAlone(stream);
          await this.run({ type: 'OrderPlannedAlone', data: { stream, position } });
        });
        return undefined;
      }
      case 'WriteOut': {
        const { planned, members } = output.data;
        this.steps.after(planned.consolidation, async () => {
          // planned again instead (an order left it), or planned again by another replica: that plan's event brings its write-out
          if ((await this.planning.writeOut(planned, members)) !== 'written') return;
          await this.run({ type: 'WindowWrittenOut', data: { consolidation: planned.consolidation } });
        });
        return undefined;
      }
      case 'ReviseShipment': {
        const { consolidation, position } = output.data;
        this.steps.after(consolidation, async () => {
          await this.planning.revise(consolidation);
          this.progress.done(position);
        });
        return undefined;
      }
      case 'ArmTimer':
        this.timers.arm(output.data.consolidation, output.data.at);
        return undefined;
      case 'ClearTimer':
        this.timers.clear(output.data.consolidation);
        return undefined;
      case 'OrderDone':
        if (output.data.position !== undefined) this.progress.done(output.data.position);
        return undefined;
      case 'WindowTracked':
      case 'OrderAdmitted':
      case 'MemberLeft':
      case 'WindowOverdue':
        return undefined; // the workflow's own record: nothing to do outside it
    }
  }

  private async readOrder(order: SubmittedOrder): Promise<void> {
    const state = orderStateOf(await readOrderStream(this.store, order.stream));
    // an amended or cancelled order waits for no window: it is planned alone, or not at all
    const waits = awaitsPlan(state) && state.version === 0;
    await this.run({ type: 'OrderRead', data: { ...order, awaitsPlan: waits, consolidation: state.consolidation } });
  }

  private async openWindow(opened: ConsolidationOpened['data']): Promise<void> {
    const { state } = await commandWindow(this.store, opened.consolidation, { type: 'Open', data: opened });
    await this.run({ type: 'OpenAnswered', data: { consolidation: opened.consolidation, window: state } });
  }

  private async joinWindow(order: SubmittedOrder & { consolidation: string }): Promise<void> {
    const join: JoinConsolidation = { type: 'JoinConsolidation', data: { consolidation: order.consolidation, joined_at: utcTimestamp() } };
    const joined = await handleOrderCommand(this.store, order.stream, join);
    if (!joined.ok) throw new Error(`consolidation: ${order.stream}: ${JSON.stringify(joined.errors)}`);
    // amended or cancelled before it joined: it joins no window (the decider recorded nothing)
    if (joined.events.length === 0 && joined.state.consolidation === undefined) {
      await this.run({ type: 'OrderRead', data: { ...order, awaitsPlan: false, consolidation: undefined } });
      return;
    }
    // another replica may have put it elsewhere meanwhile: the order's stream says where
    const first = joined.events[0];
    const consolidation =
      (first?.type === 'OrderJoinedConsolidation' ? first.data.consolidation : joined.state.consolidation) ?? order.consolidation;
    await this.run({ type: 'OrderJoined', data: { ...order, consolidation } });
  }
}
