// Two replicas on one embedded data directory: two real processes run webhook delivery on the same
// log and the same notifications.db while orders keep coming. Each webhook reaches the receiver
// once; and the e-mail claim that keeps two senders apart holds between two connections to the file.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { openSqliteEventStore } from '../../src/eventstore/sqlite-event-store.js';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite-delivery-store.js';
import { appendPlannedOrder, SECRET } from './support/order-fixtures.js';
import { tempDataDir } from './support/temp-dir.js';
import { waitFor } from './support/wait-for.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';

const CHILD = fileURLToPath(new URL('./support/webhook-delivery-child.js', import.meta.url));
const ORDERS = 40;

t.test('two processes delivering from one data directory: every webhook received exactly once', async (t) => {
  const dir = await tempDataDir(t, 'replicas');
  const store = openSqliteEventStore(dir);
  t.teardown(() => store.close());
  const received = new Map<string, number>();
  const receiver = await startWebhookReceiver(SECRET, (request) => {
    received.set(request.id, (received.get(request.id) ?? 0) + 1);
    return 200;
  });
  t.teardown(() => receiver.close());

  const children: ChildProcess[] = [];
  t.teardown(() => {
    for (const child of children) child.kill('SIGKILL');
  });
  const start = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, [CHILD, dir, receiver.url(), SECRET], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('ready\n')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`replica exited (${code}) before ready`)));
    });
    return child;
  };
  await Promise.all([start(), start()]);

  const ids: string[] = [];
  for (let i = 1; i <= ORDERS; i++) {
    ids.push(`evt_${(await appendPlannedOrder(store, { orderId: i })).id}`);
    await sleep(10);
  }
  await waitFor(`all ${ORDERS} webhooks received`, () => ids.every((id) => received.has(id)), 20_000);
  // Long enough for a second replica's duplicate to arrive, had it sent one.
  await sleep(500);
  for (const child of children) child.kill('SIGTERM');
  const exits = await Promise.all(children.map((child) => once(child, 'exit')));
  t.same(exits.map(([code]) => code), [0, 0], 'both replicas stop cleanly');

  t.equal(received.size, ORDERS, 'every event announced');
  t.same([...received.values()].filter((count) => count > 1), [], 'none twice');
  const records = openSqliteDeliveryStore(dir);
  t.teardown(() => records.close());
  const rows = await records.webhookDeliveries();
  t.equal(rows.length, ORDERS, 'one delivery row per event, though both replicas read every event');
  t.ok(rows.every((row) => row.state === 'delivered' && row.attempts === 1), 'each delivered on its first attempt');
});

t.test('the e-mail claim: one holder at a time across two connections, taken over when its lease runs out', async (t) => {
  const dir = await tempDataDir(t, 'email-claims');
  const first = openSqliteDeliveryStore(dir);
  const second = openSqliteDeliveryStore(dir);
  t.teardown(async () => {
    await first.close();
    await second.close();
  });
  t.equal(await first.claimEmail('evt-1', 'replica-a', 1000, 5000), true, 'a free e-mail is claimed');
  t.equal(await second.claimEmail('evt-1', 'replica-b', 2000, 6000), false, 'another replica waits while the lease runs');
  t.equal(await first.claimEmail('evt-1', 'replica-a', 2000, 7000), true, 'the holder may claim again (a retry after a transient failure)');
  t.equal(await second.claimEmail('evt-1', 'replica-b', 6999, 9000), false, 'still held: the renewed lease runs to 7000');
  t.equal(await second.claimEmail('evt-1', 'replica-b', 7000, 9000), true, 'a lease that ran out (its holder died) is taken over');
  t.equal(await first.claimEmail('evt-1', 'replica-a', 7001, 9000), false, 'and the old holder no longer has it');
});
