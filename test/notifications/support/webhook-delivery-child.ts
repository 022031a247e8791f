// Child process of webhook-sigkill.test: runs webhook delivery on a data dir until killed.
// Usage: node webhook-delivery-child.js <dataDir> <webhookUrl> <secret>
// Prints "ready" once delivery has started; SIGTERM stops it cleanly (exit 0).
import { openSqliteEventStore } from '../../../src/eventstore/sqlite/sqlite-event-store.js';
import { openSqliteDeliveryStore } from '../../../src/notifications/sqlite/sqlite-delivery-store.js';
import { startWebhookDelivery } from '../../../src/notifications/webhook-delivery.js';
import { masterDataWith } from './order-fixtures.js';

const [dataDir, url, secret] = process.argv.slice(2);
if (!dataDir || !url || !secret) {
  // tap runs every .js file under a directory it is given; without arguments this is not a test.
  console.log('1..0 # child process of webhook-sigkill.test, not a test');
  process.exit(0);
}

// Never outlive the test that spawned us.
setTimeout(() => process.exit(2), 60_000).unref();

const store = openSqliteEventStore(dataDir, { pollIntervalMs: 20 });
const deliveries = openSqliteDeliveryStore(dataDir);
const delivery = await startWebhookDelivery({
  store,
  deliveries,
  masterData: () => masterDataWith({ webhooks: [{ url, secret }] }),
  retryDelaysMs: [50, 50, 50],
  timeoutMs: 1000,
  // One attempt at a time: when the receiver kills us, exactly one delivery is in flight.
  concurrency: 1,
  pollIntervalMs: 50,
  log: (message, error) => process.stderr.write(`${message} ${error ?? ''}\n`),
});
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  delivery
    .stop()
    .then(() => deliveries.close())
    .then(() => store.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
});
