// Composition root: the only place that knows which adapters run. It opens the storage, starts the
// parts in the order they depend on one another and wires them to the HTTP listener; what each part
// does lives in its own file (the damage policy, readiness, gauges and the seed under service/).
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { openCheckpointStore, openClaimStore, openDeliveryStore, openEventStore, openOrderReadModel, storageNames } from './backends.js';
import { checkStorageAtStart } from './check-storage.js';
import { createRequestListener } from './app.js';
import { closeServer } from './http/close-server.js';
import { startMasterDataService } from './master-data/master-data-service.js';
import { createLogger, flushLogs, serviceLog, type Logger } from './observability/logger.js';
import { createMetrics } from './observability/metrics.js';
import { orderIdAllocator } from './orders/order-id-allocator.js';
import { LoadPlanner } from './planning/load-planner.js';
import { startPlanningReactor } from './planning/planning-reactor.js';
import { holderId, planningClaims } from './planning/planning-claims.js';
import { startConsolidationReactor } from './consolidation/consolidation-reactor.js';
import { startProjector, type Projector } from './orders/read-model/projector.js';
import { readModelState } from './orders/read-model/read-model-state.js';
import { logServedReadModel } from './orders/read-model/log-served-read-model.js';
import { selfRepairingReadModel } from './orders/read-model/self-repairing-read-model.js';
import { startReadModelScrubber } from './orders/read-model/read-model-scrubber.js';
import { PdfRenderer } from './packing-instructions/pdf-renderer.js';
import { startNotifications } from './notifications/start-notifications.js';
import { singletonKey, whileLeased } from './checkpoints/singleton-lease.js';
import type { ClaimStore } from './checkpoints/claim-store.js';
import { answersWithin } from './eventstore/answers-within.js';
import type { Config } from './config.js';
import { shareLinks } from './viewer/share-links.js';
import { loadShareSecret } from './viewer/share-secret.js';
import { logChainCheck, type LogChainCheck } from './audit/log-chain-check.js';
import type { EventStore } from './eventstore/event-store.js';
import type { OrderReadModel } from './orders/read-model/order-read-model.js';
import { loadAuditKey } from './audit/audit-key.js';
import { Teardown } from './service/teardown.js';
import { DamagePolicy } from './service/damage-policy.js';
import { deliveryStoreConsumer, namingDamage } from './service/delivery-store-checks.js';
import { backgroundFindings, readinessChecks } from './service/readiness-checks.js';
import { plannerMetrics, registerServiceGauges } from './service/service-metrics.js';
import { applySeed } from './service/seed.js';

export { SeedRejected } from './service/seed.js';

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

/** Starts every part; a part that fails to start stops those started before it, and the error is thrown. */
export async function startService(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningService> {
  const log = serviceLog(logger);
  const metrics = createMetrics();
  const names = storageNames(config);
  const damage = new DamagePolicy(logger, metrics, names.readModel);
  // Stages stop in reverse: the server first (no new work arrives), the consumers all at once (each learns it
  // is stopping before the planner and PDF renderer it waits for close, so it keeps its checkpoint before the
  // work they lost), the work held by lease (let go in the claim store), the claim store, master data, the stores.
  const parts = new Teardown();
  return parts.orUnwind(async () => {
    parts.stage('stores');
    const store = parts.add(await openEventStore(config, (message, error) => logger.warn({ err: error }, message)), (s) => s.close());
    const { repairing, orders, readModel, projectorStarted } = servedReadModel(
      await openOrderReadModel(config, { replaceDamaged: damage.replaceDamaged }),
      store,
      config,
      damage,
    );
    parts.add(orders, (o) => o.close());
    const checkpoints = parts.add(await openCheckpointStore(config), (c) => c.close());
    const deliveries = parts.add(await namingDamage(names.notifications)(() => openDeliveryStore(config)), (d) => d.close());
    const chain = logChainCheck(store, checkpoints, names.log);
    await checkStorageAtStart({
      store,
      logName: names.log,
      orders: repairing,
      readModelName: names.readModel,
      checkpoints,
      checkpointsName: names.checkpoints,
      otherConsumers: [deliveryStoreConsumer(names.notifications, deliveries)],
      log: (message) => logger.warn(message),
      verifyLogChain: () => chain.atStart(),
    });

    parts.stage('master data');
    const masterData = parts.add(await startMasterDataService(store, log, config.visibleWithinMs), (m) => m.stop());

    // What one replica does for all of them (projecting the shared read model, scrubbing it, the
    // notifications) is done by the one holding its lease in the claim store; the others take over
    // when it lapses. Planning is shared out order by order instead (planning-claims.ts).
    parts.stage('claim store');
    const holder = holderId();
    const claimStore = parts.add(await openClaimStore(config), (c) => c.close());
    const singleton = (work: string) => singletonLease(work, { claims: claimStore, holder, leaseMs: config.singletonLeaseMs, log }, store);

    parts.stage('work held by lease');
    const projector = parts.add(
      await startProjector(store, orders, log, {
        lease: { claims: claimStore, key: singletonKey('projector'), holder, leaseMs: config.singletonLeaseMs },
        onApplied: (events) => metrics.readModelWrites.inc(events),
      }),
      (p) => p.stop(),
    );
    projectorStarted(projector);
    const scrubbing = config.scrubOrdersPerSecond
      ? parts.add(
          await whileLeased(singleton('scrubber'), async () =>
            startScrubber(store, orders, config.scrubOrdersPerSecond!, chain, damage, log),
          ),
          (s) => s.stop(),
        )
      : undefined;
    const scrubProgress = () => scrubbing?.current()?.progress();

    if (config.seedFile) await applySeed(config.seedFile, masterData);

    parts.stage('consumers');
    const planner = parts.add(
      new LoadPlanner({ threads: config.plannerThreads, timeLimitMs: config.plannerTimeLimitMs, niceness: config.plannerNiceness }),
      (p) => p.close(),
    );
    const claims = planningClaims(claimStore, { holder, leaseMs: config.planningLeaseMs, log });
    const { onRun, onPlanned } = plannerMetrics(metrics);
    const reactor = parts.add(
      await startPlanningReactor({ store, checkpoints, claims, planner, concurrency: config.plannerThreads, log, onRun, onPlanned }),
      (r) => r.stop(),
    );
    const allocateOrderId = orderIdAllocator(store);
    parts.add(await startConsolidationReactor({ store, checkpoints, planner, claims, allocateOrderId, log, onRun }), (c) => c.stop());
    // Links name the address people use (ORDERS_PUBLIC_URL), else the one this process listens on,
    // known once it listens; nothing asks for a link before then.
    let listeningUrl = `http://127.0.0.1:${config.port}`;
    const links = shareLinks({
      secret: loadShareSecret(config.shareSecret, config.dataDir),
      publicUrl: () => config.publicUrl ?? listeningUrl,
      validDays: config.shareLinkDays ?? 30,
    });
    // Background work, as the planners are: at their niceness.
    const pdfRenderer = parts.add(new PdfRenderer(1, config.plannerNiceness ?? 0), (r) => r.close());
    const notifications = parts.add(
      await whileLeased(singleton('notifications'), () =>
        startNotifications({
          store,
          deliveries,
          checkpoints,
          dataDir: config.dataDir,
          masterData: () => masterData.current,
          renderPdf: (events, options) => pdfRenderer.render(events, options),
          viewerUrl: (serviceRef) => links.viewerUrl(serviceRef),
          config: config.notifications,
          log,
        }),
      ),
      (n) => n.stop(),
    );
    registerServiceGauges(metrics, { store, projector, scrubProgress, deliveries, reactor, claims, planner, pdfRenderer });

    parts.stage('server');
    let stopping = false;
    const server = createServer(
      createRequestListener({
        stopping: () => stopping,
        readModelsAvailable: () => readModel.current(),
        onDamagedStorage: (error) => void (damage.rebuildable(error) && readModel.damaged(error)),
        store,
        orders,
        masterData: () => masterData.current,
        masterDataService: masterData,
        allocateOrderId,
        visible: (position) => readModel.visible(position),
        renderPdf: (events, options) => pdfRenderer.render(events, options),
        shareLinks: links,
        auditKey: loadAuditKey(config.auditKey, config.dataDir),
        adminKey: config.adminKey,
        kafkaTopic: config.notifications.kafkaTopic,
        logger,
        metrics,
        findings: backgroundFindings(scrubProgress),
        readiness: readinessChecks({ store, orders, projector, scrubProgress, notifications: () => notifications.current() }),
      }),
    );
    listeningUrl = await listen(server, config);
    parts.add(server, async (s) => {
      stopping = true;
      await closeServer(s, config.shutdownTimeoutMs / 2);
    });

    return {
      url: listeningUrl,
      server,
      async stop() {
        try {
          await parts.unwind();
        } finally {
          await flushLogs(logger);
        }
      },
    };
  });
}

/**
 * The order read model as requests read it: documents that fail their checksum repaired from the log as
 * they are read, one order read from the log while the read model is rebuilt. It and its projector need
 * each other: the projector writes it, and a read that finds its storage damaged asks the projector
 * (started after it) for a rebuild.
 */
function servedReadModel(opened: OrderReadModel, store: EventStore, config: Config, damage: DamagePolicy) {
  const repairing = selfRepairingReadModel(opened, store, { repaired: damage.repairedOnRead, untrustedLog: damage.untrustedLog });
  let projector: Projector | undefined;
  const readModel = readModelState(store, () => projector, {
    visibleWithinMs: config.visibleWithinMs,
    rebuildingAfterDamage: damage.rebuildingAfterDamage,
  });
  const orders = logServedReadModel(repairing, store, readModel, damage.untrustedLog);
  return { repairing, orders, readModel, projectorStarted: (started: Projector) => void (projector = started) };
}

/** The scrubber verifies the log's hash chain once per pass, before it compares any order with the log. */
function startScrubber(
  store: EventStore,
  orders: OrderReadModel,
  ordersPerSecond: number,
  chain: LogChainCheck,
  damage: DamagePolicy,
  log: ReturnType<typeof serviceLog>,
) {
  return startReadModelScrubber({
    store,
    readModel: orders,
    ordersPerSecond,
    repaired: damage.repairedByScrubber,
    log,
    async verifyLog(betweenPages) {
      const outcome = await chain.fullPass(betweenPages);
      damage.logChainVerified(outcome);
      return outcome;
    },
  });
}

/** The lease of one piece of work done by one replica for all. */
function singletonLease(
  work: string,
  lease: { claims: ClaimStore; holder: string; leaseMs: number; log: ReturnType<typeof serviceLog> },
  store: EventStore,
) {
  // A replica that cannot read the log would hold that work still for everyone.
  return {
    ...lease,
    key: singletonKey(work),
    able: () => answersWithin(store.headPosition(), Math.max(100, Math.floor(lease.leaseMs / 3))),
  };
}

/** Listens; resolves with the URL it answers on (loopback for a server listening on every address). */
async function listen(server: Server, config: Config): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
