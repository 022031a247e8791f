// Composition root: the only place that knows which adapters run.
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { openCheckpointStore, openClaimStore, openDeliveryStore, openEventStore, openOrderReadModel, storageNames } from './backends.js';
import { checkStorageAtStart } from './check-storage.js';
import { DamagedStorage, damageIn } from './storage/damaged-storage.js';
import { join } from 'node:path';
import { EMAIL, KAFKA, WEBHOOKS, type DeliveryStore } from './notifications/delivery-store.js';
import { createRequestListener } from './app.js';
import { closeServer } from './http/close-server.js';
import { startMasterDataService, type MasterDataService } from './master-data/master-data-service.js';
import { validateMasterDataDocument } from './master-data/validate-master-data.js';
import { createLogger, flushLogs, serviceLog, type Logger } from './observability/logger.js';
import { countPlannerExits, createMetrics, WHOLE_READ_MODEL } from './observability/metrics.js';
import { registerMemoryGauge, threadMemory } from './observability/memory-gauge.js';
import { orderIdAllocator } from './orders/order-id-allocator.js';
import { LoadPlanner } from './planning/load-planner.js';
import { startPlanningReactor } from './planning/planning-reactor.js';
import { holderId, planningClaims } from './planning/planning-claims.js';
import { startConsolidationReactor } from './consolidation/consolidation-reactor.js';
import { startProjector, type Projector } from './orders/read-model/projector.js';
import { readModelState } from './orders/read-model/read-model-state.js';
import { logServedReadModel } from './orders/read-model/log-served-read-model.js';
import { selfRepairingReadModel } from './orders/read-model/self-repairing-read-model.js';
import { viewCachesBytes } from './orders/read-model/view-body-cache.js';
import { startReadModelScrubber } from './orders/read-model/read-model-scrubber.js';
import { PdfRenderer } from './packing-instructions/pdf-renderer.js';
import { startNotifications } from './notifications/start-notifications.js';
import { singletonKey, whileLeased } from './checkpoints/singleton-lease.js';
import { answersWithin } from './eventstore/answers-within.js';
import type { Config } from './config.js';
import { shareLinks } from './viewer/share-links.js';
import { loadShareSecret } from './viewer/share-secret.js';
import { logChainCheck, oncePerFinding } from './audit/log-chain-check.js';
import { loadAuditKey } from './audit/audit-key.js';

export interface RunningService {
  url: string;
  server: Server;
  /**
   * Graceful: /readyz answers 503 at once, new connections are refused, idle ones closed; requests in
   * flight get half of config.shutdownTimeoutMs, then their sockets are destroyed; consumers stop at a
   * checkpoint and stores close. main.ts exits when the whole timeout has passed, whatever is left.
   */
  stop(): Promise<void>;
}

export class SeedRejected extends Error {}

/** How long readiness lets the read models trail the log. */
const READY_LAG_MS = 2000;

export async function startService(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningService> {
  const log = serviceLog(logger);
  const metrics = createMetrics();
  const names = storageNames(config);
  const store = await openEventStore(config, (message, error) => logger.warn({ err: error }, message));
  // The scrubber's last verification of the log's hash chain, when it broke: no repair trusts the log then.
  let logChainBreak: string | undefined;
  const untrustedLog = () => logChainBreak;
  const repairing = selfRepairingReadModel(
    await openOrderReadModel(config, {
      replaceDamaged: (error) => {
        logger.error({ err: error }, `${error.message}: replacing it, to be rebuilt from the log`);
        metrics.readModelRepairs.inc({ document: WHOLE_READ_MODEL });
      },
    }),
    store,
    {
      repaired(damage) {
        logger.warn({ order_id: damage.orderId, document: damage.document }, `${damage.message}: repaired from the log`);
        metrics.readModelRepairs.inc({ document: damage.document });
      },
      untrustedLog,
    },
  );
  // The read model and its projector need each other: the projector writes it, and a read that finds its
  // storage damaged asks the projector for a rebuild and answers from the log meanwhile.
  let startedProjector: Projector | undefined;
  const readModel = readModelState(store, () => startedProjector, {
    visibleWithinMs: config.visibleWithinMs,
    rebuildingAfterDamage(error) {
      logger.error({ err: error }, `${error.message}: rebuilding the read model from the log; reads of one order are answered from the log meanwhile`);
      metrics.readModelRepairs.inc({ document: WHOLE_READ_MODEL });
    },
  });
  const orders = logServedReadModel(repairing, store, readModel, untrustedLog);
  const checkpoints = await openCheckpointStore(config);
  // The delivery store reports damage as SQLite's own error: named here, so that start-up refuses it in one line.
  const inNotifications = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw damageIn(names.notifications, error);
    }
  };
  let deliveries: DeliveryStore;
  try {
    deliveries = await inNotifications(() => openDeliveryStore(config));
  } catch (error) {
    await Promise.allSettled([store.close(), orders.close(), checkpoints.close()]);
    throw error;
  }
  const chain = logChainCheck(store, checkpoints, names.log);
  const reportChainBreak = oncePerFinding((outcome) => {
    logger.error(outcome.line);
    metrics.logChainBreaks.inc();
  });
  try {
    await checkStorageAtStart({
      store,
      logName: names.log,
      orders: repairing,
      readModelName: names.readModel,
      checkpoints,
      checkpointsName: names.checkpoints,
      otherConsumers: [{
        name: names.notifications,
        load: () => inNotifications(() => notificationCheckpoints(deliveries)),
        logIdentity: () => inNotifications(() => deliveries.checkpoints.logIdentity()),
        bindToLog: (logId) => inNotifications(() => deliveries.checkpoints.bindToLog(logId)),
      }],
      log: (message) => logger.warn(message),
      verifyLogChain: () => chain.atStart(),
    });
  } catch (error) {
    await Promise.allSettled([store.close(), orders.close(), checkpoints.close(), deliveries.close()]);
    throw error;
  }
  const masterDataService = await startMasterDataService(store, log, config.visibleWithinMs);
  // What one replica does for all of them (projecting the shared read model, scrubbing it, the
  // notifications) is done by the one holding its lease in the claim store; the others take over
  // when it lapses. Planning is shared out order by order instead (planning-claims.ts).
  const holder = holderId();
  const claimStore = await openClaimStore(config);
  const singleton = (work: string) => ({
    claims: claimStore, key: singletonKey(work), holder, leaseMs: config.singletonLeaseMs, log,
    // A replica that cannot read the log would hold that work still for everyone.
    able: () => answersWithin(store.headPosition(), Math.max(100, Math.floor(config.singletonLeaseMs / 3))),
  });
  const projector = await startProjector(store, orders, log, {
    lease: { claims: claimStore, key: singletonKey('projector'), holder, leaseMs: config.singletonLeaseMs },
    onApplied: (events) => metrics.readModelWrites.inc(events),
  });
  startedProjector = projector;
  metrics.gauge('orders_projector_lease_held', 'Whether this replica projects the order read model (1) or reads what another replica projected (0)', () => (projector.projecting ? 1 : 0));
  // The read model is shared: one replica scrubs it for all, whichever holds the lease.
  const scrubbing = config.scrubOrdersPerSecond
    ? await whileLeased({ ...singleton('scrubber') }, async () => startReadModelScrubber({
        store,
        readModel: orders,
        ordersPerSecond: config.scrubOrdersPerSecond!,
        repaired(orderId, documents) {
          logger.warn({ order_id: orderId }, `order ${orderId}: its ${documents.join(' and ')} in the read model differed from the log: repaired by the scrubber`);
          for (const document of documents) metrics.readModelRepairs.inc({ document });
        },
        log,
        async verifyLog(betweenPages) {
          const outcome = await chain.fullPass(betweenPages);
          logChainBreak = outcome.ok ? undefined : outcome.line;
          reportChainBreak(outcome);
          return outcome;
        },
      }))
    : undefined;
  const scrubber = { progress: () => scrubbing?.current()?.progress() };
  metrics.gauge('orders_read_model_scrub_checked', 'Orders the read-model scrubber has compared with the log in the pass under way (on the replica that scrubs)', () => scrubber.progress()?.checked ?? 0);
  metrics.gauge('orders_read_model_scrub_passes', 'Full passes of the read-model scrubber since this replica took it up', () => scrubber.progress()?.passes ?? 0);
  metrics.gauge('orders_read_model_scrub_last_full_pass_seconds', 'When the read-model scrubber last finished a full pass (Unix time; 0: not yet, or another replica scrubs)', () => (scrubber.progress()?.lastFullPassAt?.getTime() ?? 0) / 1000);

  if (config.seedFile) await applySeed(config.seedFile, masterDataService);

  const planner = new LoadPlanner({ threads: config.plannerThreads, timeLimitMs: config.plannerTimeLimitMs, niceness: config.plannerNiceness });
  const claims = planningClaims(claimStore, { holder, leaseMs: config.planningLeaseMs, log });
  const reactor = await startPlanningReactor({
    store,
    checkpoints,
    claims,
    planner,
    concurrency: config.plannerThreads,
    log,
    onPlanned: (event, ms) => {
      metrics.plannerDuration.observe({ outcome: event.type }, ms / 1000);
      if (event.type === 'OrderPlanned') countPlannerExits(metrics, event.data.plan.metrics);
    },
    onRun: (outcome) => metrics.plannerRuns.inc({ outcome }),
  });

  const allocateOrderId = orderIdAllocator(store);
  const consolidation = await startConsolidationReactor({ store, checkpoints, planner, claims, allocateOrderId, log, onRun: (outcome) => metrics.plannerRuns.inc({ outcome }) });

  // Links name the address people use (ORDERS_PUBLIC_URL), else the one this process listens on,
  // known once it listens; nothing asks for a link before then.
  let listeningUrl = `http://127.0.0.1:${config.port}`;
  const links = shareLinks({
    secret: loadShareSecret(config.shareSecret, config.dataDir),
    publicUrl: () => config.publicUrl ?? listeningUrl,
    validDays: config.shareLinkDays ?? 30,
  });

  const auditKey = loadAuditKey(config.auditKey, config.dataDir);

  // Background work, as the planners are: at their niceness.
  const pdfRenderer = new PdfRenderer(1, config.plannerNiceness ?? 0);
  const notifications = await whileLeased(singleton('notifications'), () => startNotifications({
    store,
    deliveries,
    checkpoints,
    dataDir: config.dataDir,
    masterData: () => masterDataService.current,
    renderPdf: (events, options) => pdfRenderer.render(events, options),
    viewerUrl: (serviceRef) => links.viewerUrl(serviceRef),
    config: config.notifications,
    log,
  }));
  metrics.gauge('orders_webhook_backlog', 'Webhook deliveries not yet acknowledged (pending, including retries)', async () => (await deliveries.webhookReport.counts()).pending);
  metrics.gauge('orders_webhook_failed', 'Webhook deliveries given up after every attempt', async () => (await deliveries.webhookReport.counts()).failed);

  metrics.gauge('orders_planning_backlog', 'Orders read from the log and not yet planned', () => reactor.backlog().orders);
  metrics.gauge('orders_planning_claims_held', 'Orders and consolidation windows this replica has claimed and is planning now', () => claims.held());
  metrics.gauge('orders_planning_groups_waiting', 'Company groups with orders waiting for the planner (served in turn)', () => reactor.backlog().groups);
  registerMemoryGauge(metrics, [
    threadMemory('planner_threads', () => planner.memoryBytes()),
    threadMemory('pdf_thread', () => pdfRenderer.memoryBytes()),
    () => ({ view_cache: viewCachesBytes() }),
  ]);
  metrics.gauge('orders_projection_lag_events', 'Log positions the order read models trail the log by', async () => Number(((await store.headPosition()) ?? 0n) - (projector.position < 0n ? 0n : projector.position)));

  let stopping = false;
  const listener = createRequestListener({
    stopping: () => stopping,
    readModelsAvailable: () => readModel.current(),
    onDamagedStorage: (error) => {
      // Only the read model can be rebuilt; a damaged log answers 503 until an operator restores it.
      if (error instanceof DamagedStorage && error.file === join(config.dataDir, 'read-models.db')) readModel.damaged(error);
    },
    store,
    orders,
    masterData: () => masterDataService.current,
    masterDataService,
    allocateOrderId,
    visible: (position) => readModel.visible(position),
    renderPdf: (events, options) => pdfRenderer.render(events, options),
    shareLinks: links,
    auditKey,
    adminKey: config.adminKey,
    kafkaTopic: config.notifications.kafkaTopic,
    logger,
    metrics,
    findings: (): Record<string, string> => {
      const progress = scrubber.progress();
      return { ...(progress ? { read_model_scrub: progress.lastFinding } : {}), ...(progress?.logChain ? { log_chain: progress.logChain.line } : {}) };
    },
    readiness: [
      { name: 'event_store', check: async () => void (await store.headPosition()) },
      { name: 'read_models', check: async () => void (await orders.checkpoint()) },
      {
        // A chain found broken behind the start-up check's checkpoint: not ready until an operator restores the log.
        name: 'log_chain',
        check: async () => {
          const outcome = scrubber.progress()?.logChain;
          if (outcome && !outcome.ok) throw new Error(outcome.line);
        },
      },
      {
        // A consumer group that subscribes once the service is ready must find the readiness topic.
        name: 'kafka_topic',
        check: async () => {
          // The replica that sends the notifications (it holds their lease) is the one that looks the topic up.
          const reason = notifications.current()?.notReady?.();
          if (reason) throw new Error(reason);
        },
      },
      {
        name: 'projections_caught_up',
        check: async () => {
          const head = await store.headPosition();
          if (head === undefined) return;
          await withTimeout(projector.waitFor(head), READY_LAG_MS, `order read models are more than ${READY_LAG_MS} ms behind the log`);
        },
      },
    ],
  });
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  listeningUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: listeningUrl,
    server,
    async stop() {
      stopping = true;
      await closeServer(server, config.shutdownTimeoutMs / 2);
      // All at once, consumers first so that each knows it is stopping: closing the planner and the
      // PDF renderer ends a plan or a render in progress (its worker is terminated), and the consumer
      // waiting for it stops without moving its checkpoint past it; that work is redone at the next start.
      await Promise.all([reactor.stop(), consolidation.stop(), notifications.stop(), planner.close(), pdfRenderer.close()]);
      await deliveries.close();
      await scrubbing?.stop();
      await projector.stop();
      await claimStore.close();
      await masterDataService.stop();
      await store.close();
      await orders.close();
      await checkpoints.close();
      await flushLogs(logger);
    },
  };
}

async function notificationCheckpoints(deliveries: DeliveryStore): Promise<Map<string, bigint>> {
  const positions = new Map<string, bigint>();
  for (const consumer of [WEBHOOKS, EMAIL, KAFKA]) {
    const position = await deliveries.checkpoints.checkpoint(consumer);
    if (position !== undefined) positions.set(consumer, position);
  }
  return positions;
}

async function applySeed(file: string, masterData: MasterDataService): Promise<void> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new SeedRejected(`ORDERS_SEED_FILE ${file}: ${(error as Error).message}`);
  }
  const validated = validateMasterDataDocument(document);
  if (!validated.ok) throw new SeedRejected(`ORDERS_SEED_FILE ${file} is invalid: ${JSON.stringify(validated.errors)}`);
  const result = await masterData.apply(validated.value);
  if (!result.ok) throw new SeedRejected(`ORDERS_SEED_FILE ${file} conflicts with stored master data: ${JSON.stringify(result.errors)}`);
}

function withTimeout(promise: Promise<void>, ms: number, message: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
