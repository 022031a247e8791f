// What /metrics counts of the running parts. Each gauge is read when /metrics is scraped, so none costs
// anything between scrapes; work one replica does for all (projecting, scrubbing, notifications) reads
// as 0 on the others.
import type { EventStore } from '../eventstore/event-store.js';
import type { DeliveryStore } from '../notifications/delivery-store.js';
import { registerMemoryGauge, threadMemory } from '../observability/memory-gauge.js';
import { countPlannerExits, type Metrics } from '../observability/metrics.js';
import type { PdfRenderer } from '../packing-instructions/pdf-renderer.js';
import type { Projector } from '../orders/read-model/projector.js';
import type { ScrubProgress } from '../orders/read-model/read-model-scrubber.js';
import { viewCachesBytes } from '../orders/read-model/view-body-cache.js';
import type { LoadPlanner } from '../planning/load-planner.js';
import type { PlanningLeases } from '../leases/planning-leases.js';
import type { PlanningReactorOptions, PlanningReactor } from '../planning/planning-reactor.js';

export interface GaugedParts {
  store: EventStore;
  projector: Projector;
  scrubProgress(): ScrubProgress | undefined;
  deliveries: DeliveryStore;
  reactor: PlanningReactor;
  leases: PlanningLeases;
  planner: LoadPlanner;
  pdfRenderer: PdfRenderer;
}

export function registerServiceGauges(metrics: Metrics, parts: GaugedParts): void {
  const { store, projector, scrubProgress, deliveries, reactor, leases } = parts;
  metrics.gauge(
    'orders_projector_lease_held',
    'Whether this replica projects the order read model (1) or reads what another replica projected (0)',
    () => (projector.projecting ? 1 : 0),
  );
  metrics.gauge('orders_projection_lag_events', 'Log positions the order read models trail the log by', async () =>
    Number(((await store.headPosition()) ?? 0n) - (projector.position < 0n ? 0n : projector.position)),
  );

  metrics.gauge(
    'orders_read_model_scrub_checked',
    'Orders the read-model scrubber has compared with the log in the pass under way (on the replica that scrubs)',
    () => scrubProgress()?.checked ?? 0,
  );
  metrics.gauge(
    'orders_read_model_scrub_passes',
    'Full passes of the read-model scrubber since this replica took it up',
    () => scrubProgress()?.passes ?? 0,
  );
  metrics.gauge(
    'orders_read_model_scrub_last_full_pass_seconds',
    'When the read-model scrubber last finished a full pass (Unix time; 0: not yet, or another replica scrubs)',
    () => (scrubProgress()?.lastFullPassAt?.getTime() ?? 0) / 1000,
  );

  metrics.gauge(
    'orders_webhook_backlog',
    'Webhook deliveries not yet acknowledged (pending, including retries)',
    async () => (await deliveries.webhookReport.counts()).pending,
  );
  metrics.gauge(
    'orders_webhook_failed',
    'Webhook deliveries given up after every attempt',
    async () => (await deliveries.webhookReport.counts()).failed,
  );

  metrics.gauge('orders_planning_backlog', 'Orders read from the log and not yet planned', () => reactor.backlog().orders);
  metrics.gauge('orders_planning_claims_held', 'Orders and consolidation windows this replica has claimed and is planning now', () =>
    leases.held(),
  );
  metrics.gauge(
    'orders_planning_groups_waiting',
    'Company groups with orders waiting for the planner (served in turn)',
    () => reactor.backlog().groups,
  );

  registerMemoryGauge(metrics, [
    threadMemory('planner_threads', () => parts.planner.memoryBytes()),
    threadMemory('pdf_thread', () => parts.pdfRenderer.memoryBytes()),
    () => ({ view_cache: viewCachesBytes() }),
  ]);
}

/** The planner's runs, how long each took and how its search ended: the planning and consolidation reactors' hooks. */
export function plannerMetrics(metrics: Metrics): Pick<PlanningReactorOptions, 'onPlanned' | 'onRun'> {
  return {
    onRun: (outcome) => metrics.plannerRuns.inc({ outcome }),
    onPlanned: (event, ms) => {
      metrics.plannerDuration.observe({ outcome: event.type }, ms / 1000);
      if (event.type === 'OrderPlanned') countPlannerExits(metrics, event.data.plan.metrics);
    },
  };
}
