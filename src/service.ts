// Composition root: the only place that knows which adapters run. It opens the storage, starts the
// parts in the order they depend on one another and wires them to the HTTP listener; what each part
// does lives in its own file (the damage policy, readiness, gauges and the seed under service/).
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import {
  type BackendSettings,
  openCheckpointStore,
  openWorkLeaseStore,
  openDeliveryStore,
  openEventStore,
  openOrderReadModel,
  storageNames,
} from './backends.js';
import { walCheckpointer } from './storage/wal-checkpointer.js';
import { checkStorageAtStart } from './check-storage.js';
import { createRequestListener } from './app.js';
import { closeServer } from './http/close-server.js';
import { startMasterDataService, type MasterDataService } from './master-data/master-data-service.js';
import { createLogger, flushLogs, serviceLog, type Logger } from './observability/logger.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { orderIdAllocator } from './orders/order-id-allocator.js';
import { LoadPlanner } from './planning/load-planner.js';
import { startPlanningReactor } from './planning/planning-reactor.js';
import { SubmittedHere } from './planning/submitted-here.js';
import { holderId } from './leases/holder-id.js';
import { planningLeases } from './leases/planning-leases.js';
import { startConsolidationReactor } from './consolidation/consolidation-reactor.js';
import { startProjector, type Projector } from './orders/read-model/projector.js';
import { servedReadModel, type ServedReadModel } from './orders/read-model/served-read-model.js';
import { selfRepairingReadModel } from './orders/read-model/self-repairing-read-model.js';
import { startReadModelScrubber, type ScrubProgress } from './orders/read-model/read-model-scrubber.js';
import { PdfRenderer } from './packing-instructions/pdf-renderer.js';
import { startNotifications } from './notifications/start-notifications.js';
import { singletonKey, whileLeased } from './leases/singleton-lease.js';
import type { WorkLeaseStore } from './leases/work-lease-store.js';
import { answersWithin } from './leases/answers-within.js';
import { DEFAULT_EMAIL_YIELD_MS, type Config } from './config.js';
import { foregroundGate } from './workers/foreground-gate.js';
import { shareLinks, type ShareLinks } from './viewer/share-links.js';
import { loadShareSecret } from './viewer/share-secret.js';
import { logChainCheck } from './audit/log-chain-check.js';
import type { EventStore } from './eventstore/event-store.js';
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

type ServiceLog = ReturnType<typeof serviceLog>;

/** Starts every part; a part that fails to start stops those started before it, and the error is thrown. */
export async function startService(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningService> {
  const log = serviceLog(logger);
  const metrics = createMetrics();
  const damage = new DamagePolicy(logger, metrics, storageNames(config).readModel);
  // Stages stop in reverse: the server first (no new work arrives), the consumers all at once (each learns it
  // is stopping before the planner and PDF renderer it waits for close, so it keeps its checkpoint before the
  // work they lost), the work held by lease (let go in the work lease store), the work lease store, master data, the
  // stores, and last the WAL checkpointer.
  const parts = new Teardown();
  return parts.orUnwind(async () => {
    // Stopped after the stores, whose connections let go of it as they close.
    parts.stage('WAL checkpoints');
    const walCheckpoints = parts.add(walCheckpointer({ niceness: config.plannerNiceness ?? 0, log }), (w) => w.close());
    const backends: Backends = { ...config, walCheckpointer: walCheckpoints };
    const storage = await openStorage(parts, backends, logger, damage);

    parts.stage('master data');
    const masterData = parts.add(await startMasterDataService(storage.store, log, config.visibleWithinMs), (m) => m.stop());

    // What one replica does for all of them (projecting the shared read model, scrubbing it, the
    // notifications) is done by the one holding its lease in the work lease store; the others take over
    // when it lapses. Planning is shared out order by order instead (leases/planning-leases.ts).
    parts.stage('work lease store');
    const holder = holderId();
    const workLeases = parts.add(await openWorkLeaseStore(backends), (c) => c.close());
    const lease = { store: workLeases, holder, leaseMs: config.singletonLeaseMs, log };

    parts.stage('work held by lease');
    const { projector, orders, scrubProgress } = await startLeasedWork(parts, config, storage, lease, damage, metrics);
    if (config.seedFile) await applySeed(config.seedFile, masterData);

    parts.stage('consumers');
    const consumers = await startConsumers(parts, config, storage, masterData, lease, metrics);
    registerServiceGauges(metrics, { ...storage, ...consumers, projector, scrubProgress });

    parts.stage('server');
    const server = await startServer(parts, config, {
      storage,
      orders,
      projector,
      scrubProgress,
      masterData,
      consumers,
      damage,
      logger,
      metrics,
    });
    return {
      url: consumers.listeningUrl(),
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

/** What the HTTP listener serves: every part started before it. */
interface Started {
  storage: Storage;
  orders: ServedReadModel;
  projector: Projector;
  scrubProgress: () => ScrubProgress | undefined;
  masterData: MasterDataService;
  consumers: Consumers;
  damage: DamagePolicy;
  logger: Logger;
  metrics: Metrics;
}

/** The HTTP listener; once stopping, /readyz answers 503 and every answer closes its connection. */
async function startServer(parts: Teardown, config: Config, started: Started): Promise<Server> {
  const { storage, orders, projector, scrubProgress, masterData, consumers, damage } = started;
  let stopping = false;
  const listener = createRequestListener({
    stopping: () => stopping,
    readModelsAvailable: () => orders.current(),
    onDamagedStorage: (error) => void (damage.rebuildable(error) && orders.damaged(error)),
    store: storage.store,
    orders,
    masterData: () => masterData.current,
    masterDataService: masterData,
    allocateOrderId: consumers.allocateOrderId,
    submittedHere: (orderId) => consumers.submittedHere.add(orderId),
    visible: (position) => orders.visible(position),
    renderPdf: (events, options) => consumers.pdfRenderer.render(events, options),
    shareLinks: consumers.links,
    auditKey: loadAuditKey(config.auditKey, config.dataDir),
    adminKey: config.adminKey,
    kafkaTopic: config.notifications.kafkaTopic,
    logger: started.logger,
    metrics: started.metrics,
    findings: backgroundFindings(scrubProgress),
    readiness: readinessChecks({ ...storage, orders, projector, scrubProgress, notifications: () => consumers.notifications.current() }),
  });
  const server = createServer(listener);
  consumers.listening(await listen(server, config));
  parts.add(server, async (s) => {
    stopping = true;
    await closeServer(s, config.shutdownTimeoutMs / 2);
  });
  return server;
}

/** The configuration as the stores are opened with it: with the service's WAL checkpointer. */
type Backends = Config & Pick<BackendSettings, 'walCheckpointer'>;

/** The stores, checked against one another before anything reads them (check-storage.ts). */
async function openStorage(parts: Teardown, config: Backends, logger: Logger, damage: DamagePolicy) {
  const names = storageNames(config);
  parts.stage('stores');
  const store = parts.add(await openEventStore(config, (message, error) => logger.warn({ err: error }, message)), (s) => s.close());
  // Documents that fail their checksum are repaired from the log as they are read or written (stage 2 of served-read-model.ts).
  const opened = await openOrderReadModel(config, { replaceDamaged: damage.replaceDamaged });
  const readModel = parts.add(
    selfRepairingReadModel(opened, store, { repaired: damage.repairedOnRead, untrustedLog: damage.untrustedLog }),
    (r) => r.close(),
  );
  const checkpoints = parts.add(await openCheckpointStore(config), (c) => c.close());
  const deliveries = parts.add(await namingDamage(names.notifications)(() => openDeliveryStore(config)), (d) => d.close());
  const chain = logChainCheck(store, checkpoints, names.log);
  await checkStorageAtStart({
    store,
    logName: names.log,
    orders: readModel,
    readModelName: names.readModel,
    checkpoints,
    checkpointsName: names.checkpoints,
    otherConsumers: [deliveryStoreConsumer(names.notifications, deliveries)],
    log: (message) => logger.warn(message),
    verifyLogChain: () => chain.atStart(),
  });
  return { store, readModel, checkpoints, deliveries, chain };
}

type Storage = Awaited<ReturnType<typeof openStorage>>;
type Consumers = Awaited<ReturnType<typeof startConsumers>>;
type Lease = { store: WorkLeaseStore; holder: string; leaseMs: number; log: ServiceLog };

/**
 * The projector and the scrubber: one replica does each for all, the one holding its lease. The order
 * read model as requests read it is built on the projector (served-read-model.ts), which writes the
 * read model and knows nothing of its readers.
 */
async function startLeasedWork(parts: Teardown, config: Config, storage: Storage, lease: Lease, damage: DamagePolicy, metrics: Metrics) {
  const { store, readModel } = storage;
  const projector = parts.add(
    await startProjector(store, readModel, lease.log, {
      lease: { ...lease, key: singletonKey('projector') },
      onApplied: (events) => metrics.readModelWrites.inc(events),
      rebuildingAfterDamage: damage.rebuildingAfterDamage,
    }),
    (p) => p.stop(),
  );
  const orders = servedReadModel(readModel, store, projector, {
    visibleWithinMs: config.visibleWithinMs,
    untrustedLog: damage.untrustedLog,
  });
  const perSecond = config.scrubOrdersPerSecond;
  const scrubbing = perSecond
    ? parts.add(
        await whileLeased(singletonLease('scrubber', lease, store), async () =>
          startScrubber(storage, orders, perSecond, damage, lease.log),
        ),
        (s) => s.stop(),
      )
    : undefined;
  return { projector, orders, scrubProgress: () => scrubbing?.current()?.progress() };
}

/** The log's consumers: planning, consolidation and, on the replica holding their lease, the notifications. */
async function startConsumers(
  parts: Teardown,
  config: Config,
  storage: Storage,
  masterData: MasterDataService,
  lease: Lease,
  metrics: Metrics,
) {
  const { store, checkpoints } = storage;
  const { log } = lease;
  const planner = parts.add(
    new LoadPlanner({ threads: config.plannerThreads, timeLimitMs: config.plannerTimeLimitMs, niceness: config.plannerNiceness }),
    (p) => p.close(),
  );
  const leases = planningLeases(lease.store, { holder: lease.holder, leaseMs: config.planningLeaseMs, log });
  const { onRun, onPlanned } = plannerMetrics(metrics);
  const submittedHere = new SubmittedHere();
  const reactor = parts.add(
    await startPlanningReactor({
      store,
      checkpoints,
      leases,
      planner,
      concurrency: config.plannerThreads,
      log,
      onRun,
      onPlanned,
      submittedHere,
    }),
    (r) => r.stop(),
  );
  const allocateOrderId = orderIdAllocator(store);
  parts.add(await startConsolidationReactor({ store, checkpoints, planner, leases, allocateOrderId, log, onRun }), (c) => c.stop());
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
  const notifications = await startNotificationsWhileLeased(parts, config, storage, masterData, lease, pdfRenderer, links);
  return {
    planner,
    leases,
    reactor,
    allocateOrderId,
    submittedHere,
    links,
    pdfRenderer,
    notifications,
    listening: (url: string) => void (listeningUrl = url),
    listeningUrl: () => listeningUrl,
  };
}

/** The notifications, on the replica that holds their lease. */
async function startNotificationsWhileLeased(
  parts: Teardown,
  config: Config,
  storage: Storage,
  masterData: MasterDataService,
  lease: Lease,
  pdfRenderer: PdfRenderer,
  links: ShareLinks,
) {
  const emailGate = foregroundGate({ maxWaitMs: config.notifications.emailYieldMs ?? DEFAULT_EMAIL_YIELD_MS });
  return parts.add(
    await whileLeased(singletonLease('notifications', lease, storage.store), () =>
      startNotifications({
        store: storage.store,
        deliveries: storage.deliveries,
        checkpoints: storage.checkpoints,
        dataDir: config.dataDir,
        masterData: () => masterData.current,
        // The e-mails can wait: their PDFs are drawn when the main thread has room (foreground-gate.ts).
        renderMessage: async (events, options, fields) => {
          await emailGate();
          return pdfRenderer.renderMessage(events, options, fields);
        },
        viewerUrl: (serviceRef) => links.viewerUrl(serviceRef),
        config: config.notifications,
        holder: lease.holder,
        log: lease.log,
      }),
    ),
    (n) => n.stop(),
  );
}

/** The scrubber verifies the log's hash chain once per pass, before it compares any order with the log. */
function startScrubber(storage: Storage, orders: ServedReadModel, ordersPerSecond: number, damage: DamagePolicy, log: ServiceLog) {
  return startReadModelScrubber({
    store: storage.store,
    readModel: orders,
    ordersPerSecond,
    repaired: damage.repairedByScrubber,
    log,
    async verifyLog(betweenPages) {
      const outcome = await storage.chain.fullPass(betweenPages);
      damage.logChainVerified(outcome);
      return outcome;
    },
  });
}

/** The lease of one piece of work done by one replica for all. */
function singletonLease(work: string, lease: Lease, store: EventStore) {
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
