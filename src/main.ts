// `npm start`: the service on the embedded default.
import { configFromEnv, DEMO_SEED_FILE, type Config } from './config.js';
import { SeedRejected, startService } from './service.js';
import { StorageRefused } from './check-storage.js';
import { DamagedStorage } from './storage/damaged-storage.js';
import { describeBackends, storageNames } from './backends.js';
import { whatToDoAbout } from './storage/what-to-do.js';
import { ShareSecretRejected } from './viewer/share-secret.js';
import { AuditKeyRejected } from './audit/audit-key.js';
import { ASYNCAPI_PATH, OPENAPI_PATH } from './openapi.js';
import { refuseUnsupportedNode } from './node-version.js';
import { releaseHeapWhenIdle } from './memory/release-heap-when-idle.js';

const DEMO_API_KEY = 'acme-demo-key-0001';

refuseUnsupportedNode();

let config: Config | undefined;
try {
  config = configFromEnv();
  const service = await startService(config);
  releaseHeapWhenIdle();
  // service.url is the loopback address when HOST is a wildcard; say that the other interfaces listen too.
  const everywhere = config.host === '0.0.0.0' || config.host === '::' ? ` and every other interface (HOST=${config.host})` : '';
  console.log(`Orders service listening on ${service.url}${everywhere} (${describeBackends(config)})`);
  console.log(`OpenAPI document: ${service.url}${OPENAPI_PATH}`);
  const kafka = config.notifications.kafkaBrokers
    ? `topic ${config.notifications.kafkaTopic}`
    : 'not published here: KAFKA_BROKERS is unset';
  console.log(`AsyncAPI document (Kafka, ${kafka}): ${service.url}${ASYNCAPI_PATH}`);
  // Only the demo document's key is ever printed: real keys never reach a log.
  if (config.seedFile === DEMO_SEED_FILE)
    console.log(`Demo lane 101 loaded. Demo API key: ${DEMO_API_KEY}  (send "Authorization: Api-Key ${DEMO_API_KEY}")`);
  const { shutdownTimeoutMs } = config;
  const shutdown = () => {
    // Whatever is still running at the deadline is cut: every acknowledged write is already durable,
    // and consumers resume from their checkpoints.
    setTimeout(() => {
      console.error(`shutdown took longer than ${shutdownTimeoutMs} ms (ORDERS_SHUTDOWN_TIMEOUT_MS); exiting anyway`);
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
} catch (error) {
  // Reasons an operator acts on get one line, not a stack trace: the file, what is wrong, what to do.
  if (error instanceof DamagedStorage && config)
    console.error(`Not starting: ${error.message}: ${whatToDoAbout(error.file, storageNames(config))}`);
  else if (
    error instanceof SeedRejected ||
    error instanceof StorageRefused ||
    error instanceof DamagedStorage ||
    error instanceof ShareSecretRejected ||
    error instanceof AuditKeyRejected
  )
    console.error(`Not starting: ${(error as Error).message}`);
  else console.error(error);
  process.exit(1);
}
