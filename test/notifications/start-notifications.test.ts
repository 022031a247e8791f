// The one call the composition root makes: webhooks and e-mail (to the outbox here) from one start.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqlite/sqlite-event-store.js';
import { openSqliteCheckpointStore } from '../../src/checkpoints/sqlite-checkpoint-store.js';
import { notificationsConfigFromEnv } from '../../src/config.js';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { startNotifications } from '../../src/notifications/start-notifications.js';
import { composedHere } from '../../src/notifications/mail-message.js';
import { appendPlannedOrder, masterDataWith, SECRET } from './support/order-fixtures.js';
import { tempDataDir } from './support/temp-dir.js';
import { waitFor } from './support/wait-for.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';

t.test('startNotifications without Kafka or SMTP: a webhook and an .eml per planned order', async (t) => {
  const dir = await tempDataDir(t, 'start');
  const store = openSqliteEventStore(dir, { pollIntervalMs: 20 });
  t.teardown(() => store.close());
  const receiver = await startWebhookReceiver(SECRET, () => 200);
  t.teardown(() => receiver.close());
  const masterData = masterDataWith({
    notification_emails: ['logistics@acme.example'],
    webhooks: [{ url: receiver.url(), secret: SECRET }],
  });
  const deliveries = openSqliteDeliveryStore(dir);
  const checkpoints = openSqliteCheckpointStore(dir);
  t.teardown(async () => {
    await deliveries.close();
    await checkpoints.close();
  });
  const notifications = await startNotifications({
    store,
    deliveries,
    checkpoints,
    dataDir: dir,
    masterData: () => masterData,
    renderMessage: composedHere(async () => Buffer.from('%PDF-1.4\n%%EOF\n')),
    config: notificationsConfigFromEnv({}),
    log: () => undefined,
  });
  const event = await appendPlannedOrder(store, { orderId: 1 });
  await waitFor('the webhook', () => receiver.received.length === 1);
  await waitFor('the .eml', async () => (await readdir(join(dir, 'outbox')).catch(() => [])).length === 1);
  await notifications.stop();
  t.equal(receiver.received[0]?.id, `evt_${event.id}`);
  t.strictSame(await readdir(join(dir, 'outbox')), [`SO-000001-${event.id}.eml`]);
});
