// The service as a real process, killed with SIGKILL while it plans and delivers, then restarted on
// the same data directory: every order is planned exactly once (each version of an amended one; a
// cancelled one never after its cancel), every ready and cancel event reaches the webhook receiver, and
// only deliveries in flight at the moment of a kill can come twice.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACME_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { eventually, removeDataDir, tempDataDir } from '../support/service.js';
import { allEvents } from '../support/events.js';
import { startWebhookReceiver } from './loopback-peers.js';
import { embeddedEnv } from '../support/embedded-env.js';

const ORDERS = 24;
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const dataDir = tempDataDir();
const receiver = await startWebhookReceiver(SECRET);
const seed = testSeed();
seed.company_groups[0]!.webhooks = [{ url: receiver.url, secret: SECRET }];
writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(seed));

let child: ChildProcess | undefined;
function startChild(): Promise<string> {
  child = spawn(process.execPath, [main], {
    env: embeddedEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      ORDERS_DATA_DIR: dataDir,
      ORDERS_SEED_FILE: join(dataDir, 'seed.json'),
      ORDERS_WEBHOOK_RETRY_DELAYS_MS: '200,400,800',
      LOG_LEVEL: 'silent',
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (url) resolve(url);
    });
    child!.once('exit', (code, signal) => reject(new Error(`service exited early (${code ?? signal}): ${output}`)));
  });
}
t.teardown(async () => {
  child?.kill('SIGKILL');
  await receiver.stop();
  removeDataDir(dataDir);
});

const kills: number[] = [];
const acknowledged = () => new Set(receiver.requests.filter((r) => r.status === 200).map((r) => r.id)).size;

t.test('SIGKILL during planning and delivery, restart, every order planned once and every event delivered', async (t) => {
  let url = (currentUrl = await startChild());
  // Kill the process the moment the 4th and then the 12th distinct event has been acknowledged:
  // more orders are queued for planning and more deliveries are in flight at both moments.
  receiver.afterAnswer = (request) => {
    const count = acknowledged();
    if (request.status === 200 && (count === 4 || count === 12) && !kills.includes(count)) {
      kills.push(count);
      child!.kill('SIGKILL');
    }
  };
  const references: string[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const reference = `KILL-${i}`;
    const response = await fetch(`${url}/api/v1/orders/submit-order/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${ACME_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        acmeOrder({
          reference,
          order_items: [
            { item: 'SKU-1001', quantity: 60 + i * 7 },
            { item: 'SKU-1002', quantity: 10 + i },
          ],
        }),
      ),
    }).catch(() => undefined);
    if (!response) {
      // Cut off by a kill: send it again once the service is back, as a client would.
      url = await restartAfterKill();
      i--;
      continue;
    }
    const body = (await response.json()) as { reference?: string[]; order_id?: number };
    // A retried submit whose first try was stored before the kill is recognised as a retry: 200, it is in.
    const storedBeforeKill = response.status === 200;
    t.ok(response.status === 201 || storedBeforeKill, `${reference}: ${response.status} ${JSON.stringify(body)}`);
    references.push(reference);
    ids.push(body.order_id!);
    // Issue 59 among the kills: the order before this one cancelled, or amended, sent again after a kill as a client would.
    if (i % 6 === 3 || i % 6 === 5) url = await changeUntilAnswered(url, i - 1, i % 6 === 3 ? 'cancel' : 'amend');
  }
  t.equal(references.length, ORDERS, 'every order was taken, some of them on a retry after a kill');
  // every OrderPlanned and OrderCancelled in the log is an event to announce
  const announcements = async () =>
    (await allEvents(dataDir)).filter((e) => e.type === 'OrderPlanned' || e.type === 'OrderCancelled').length;
  // every order has its result for its newest version (an amend after its plan is planned again), or is cancelled
  const allSettled = async () => {
    const last = new Map<string, string>();
    for (const e of await allEvents(dataDir))
      if (['OrderSubmitted', 'OrderAmended', 'OrderPlanned', 'OrderPlanningFailed', 'OrderCancelled'].includes(e.type))
        last.set(e.stream, e.type);
    return last.size === ORDERS && [...last.values()].every((type) => type !== 'OrderSubmitted' && type !== 'OrderAmended');
  };
  const settled = async () => acknowledged() >= ORDERS + CHANGED / 2 && (await allSettled()) && acknowledged() >= (await announcements());
  for (let round = 0; !(await settled()) && round < 3; round++) {
    try {
      await eventually(async () => (await settled()) || child!.exitCode !== null || child!.signalCode !== null, 60_000);
    } catch {
      break;
    }
    if (!(await settled())) url = await restartAfterKill();
  }
  t.equal(kills.length, 2, `killed after ${kills.join(' and ')} acknowledged events`);
  t.equal(acknowledged(), await announcements(), 'every ready and cancel event was acknowledged');

  child!.kill('SIGTERM');
  await new Promise((resolve) => child!.once('exit', resolve));
  const events = await allEvents(dataDir);
  const submitted = events.filter((event) => event.type === 'OrderSubmitted');
  t.equal(submitted.length, ORDERS, 'each submit stored once');
  for (const order of submitted) {
    const stream = events.filter((event) => event.stream === order.stream);
    const results = stream.filter((event) => event.type === 'OrderPlanned' || event.type === 'OrderPlanningFailed');
    const versions = results.map((event) => (event.data as { version?: number }).version ?? 0);
    const amends = stream.filter((event) => event.type === 'OrderAmended').length;
    const cancelled = stream.findIndex((event) => event.type === 'OrderCancelled');
    if (cancelled >= 0) {
      t.equal(stream.filter((event) => event.type === 'OrderCancelled').length, 1, `${order.stream} cancelled once`);
      t.notOk(
        stream.slice(cancelled).some((event) => event.type === 'OrderPlanned'),
        `${order.stream}: nothing planned after its cancel`,
      );
      t.ok(versions.length <= 1 && versions.every((v) => v === 0), `${order.stream}: at most its one plan before the cancel`);
    } else if (amends > 0) {
      t.equal(amends, 1, `${order.stream} amended once (a retried amend of the same content records nothing)`);
      t.same(
        versions.filter((v) => v === 1),
        [1],
        `${order.stream}: its amended version planned exactly once`,
      );
      t.ok(
        versions.filter((v) => v === 0).length <= 1,
        `${order.stream}: its first version planned at most once (not if the amend came first)`,
      );
    } else t.same(versions, [0], `${order.stream} planned exactly once`);
  }
  t.equal(events.filter((event) => event.type === 'OrderCancelled').length, CHANGED / 2, `${CHANGED / 2} orders cancelled`);
  t.equal(events.filter((event) => event.type === 'OrderAmended').length, CHANGED / 2, `${CHANGED / 2} orders amended`);
  const deliveriesById = new Map<string, number>();
  for (const request of receiver.requests.filter((r) => r.status === 200))
    deliveriesById.set(request.id, (deliveriesById.get(request.id) ?? 0) + 1);
  const duplicates = [...deliveriesById.values()].filter((count) => count > 1).length;
  t.ok(
    receiver.requests.every((r) => r.signatureValid),
    'every delivery signed',
  );
  // At most the deliveries in flight at a kill (8 at a time) can be acknowledged and then sent again.
  t.ok(duplicates <= 8 * kills.length, `${duplicates} event(s) acknowledged twice, all in flight at a kill`);
  t.comment(`orders ${ORDERS}, kills ${kills.length}, webhook requests ${receiver.requests.length}, acknowledged twice ${duplicates}`);
});

let currentUrl = '';
const ids: number[] = [];
/** Orders cancelled or amended during the run: one of each in every six. */
const CHANGED = 2 * Math.floor(ORDERS / 6);

/** Cancels or amends order `n` (If-Match *, the same content on a retry), sending it again after a kill until answered 200. */
async function changeUntilAnswered(url: string, n: number, change: 'cancel' | 'amend'): Promise<string> {
  const path = `/api/v1/orders/detailed-orders/${ids[n]}/`;
  const body = acmeOrder({ reference: `KILL-${n}`, order_items: [{ item: 'SKU-1001', quantity: 30 }] });
  for (let attempt = 0; attempt < 10; attempt++) {
    const response = await fetch(`${url}${path}${change === 'cancel' ? 'cancel/' : ''}`, {
      method: change === 'cancel' ? 'POST' : 'PUT',
      headers: { authorization: `Api-Key ${ACME_KEY}`, 'content-type': 'application/json', 'if-match': '*' },
      body: JSON.stringify(change === 'cancel' ? { reason: 'called off during the kills' } : body),
    }).catch(() => undefined);
    if (response?.status === 200) return url;
    url = await restartAfterKill();
  }
  throw new Error(`${change} of KILL-${n} not answered 200 in 10 tries`);
}
/** After a failed request: a new process if the receiver killed this one, else the same one again. */
async function restartAfterKill(): Promise<string> {
  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  if (alive() && !kills.length) return currentUrl;
  await new Promise((resolve) => setTimeout(resolve, 50));
  if (alive() && kills.length > 0 && child!.killed === false) return currentUrl;
  if (alive()) await new Promise((resolve) => child!.once('exit', resolve));
  currentUrl = await startChild();
  return currentUrl;
}
