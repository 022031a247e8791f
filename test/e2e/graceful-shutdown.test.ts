// SIGTERM: the service stops accepting, answers the request in flight, stops its consumers at a
// checkpoint, closes its stores and exits 0; what it acknowledged is there after a restart.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACME_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { removeDataDir, tempDataDir } from '../support/service.js';
import { allEvents } from '../support/events.js';
import { embeddedEnv } from '../support/embedded-env.js';

const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const dataDir = tempDataDir();
writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(testSeed()));
t.teardown(() => removeDataDir(dataDir));

function startChild(env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [main], {
    env: embeddedEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      ORDERS_DATA_DIR: dataDir,
      ORDERS_SEED_FILE: join(dataDir, 'seed.json'),
      LOG_LEVEL: 'silent',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (url) resolve({ child, url: new URL(url) });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

t.test('SIGTERM answers the request in flight, refuses new ones, and exits 0', async (t) => {
  const { child, url } = await startChild();
  const body = JSON.stringify(acmeOrder({ reference: 'IN-FLIGHT' }));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  // Half the body now, SIGTERM, then the rest: the request is in flight when the signal lands.
  let refusedWhileDraining: boolean | undefined;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/api/v1/orders/submit-order/',
        headers: { authorization: `Api-Key ${ACME_KEY}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 40));
    setTimeout(() => {
      child.kill('SIGTERM');
      setTimeout(async () => {
        // The process is still up, waiting for this request: a new connection must be refused by now.
        refusedWhileDraining = await fetch(`${url.origin}/healthz`).then(
          () => false,
          () => true,
        );
        req.end(body.slice(40));
      }, 300);
    }, 100);
  });

  const answered = await response;
  t.equal(answered.status, 201, answered.body);
  t.equal(refusedWhileDraining, true, 'a new connection while the request in flight drains is refused');
  t.equal(await exited, 0, 'exits 0');

  const events = await allEvents(dataDir);
  t.ok(
    events.some(
      (event) => event.type === 'OrderSubmitted' && (event.data as { order: { reference: string } }).order.reference === 'IN-FLIGHT',
    ),
    'the acknowledged order is stored',
  );

  const again = await startChild();
  const read = await fetch(`${again.url.origin}/api/v1/orders/detailed-orders/?search=IN-FLIGHT`, {
    headers: { authorization: `Api-Key ${ACME_KEY}` },
  });
  t.equal(((await read.json()) as { count: number }).count, 1, 'and visible after a restart');
  again.child.kill('SIGTERM');
  t.equal(await new Promise((resolve) => again.child.once('exit', resolve)), 0);
});

/** A raw connection that has sent `head` and records what it receives and when it is closed. */
function rawSocket(url: URL, head: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(head);
      resolve({ socket, received: () => text, closed });
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.once('error', reject);
  });
}

t.test(
  'SIGTERM with clients holding half-sent requests: /readyz 503 at once, idle and stalled sockets closed, exit within the deadline',
  async (t) => {
    const { child, url } = await startChild({ ORDERS_SHUTDOWN_TIMEOUT_MS: '8000' });
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    // Never hang the suite, before the fix (the process waited for the client for ever) or after.
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    t.teardown(() => clearTimeout(killer));

    const acknowledged = await fetch(`${url.origin}/api/v1/orders/submit-order/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${ACME_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(acmeOrder({ reference: 'BEFORE-STALL' })),
    });
    t.equal(acknowledged.status, 201, 'an order acknowledged before the signal');

    const body = JSON.stringify(acmeOrder({ reference: 'NEVER-FINISHED' }));
    const stalledHeaders = await rawSocket(url, 'POST /api/v1/orders/submit-order/ HTTP/1.1\r\nHost: x\r\n');
    const stalledBody = await rawSocket(
      url,
      `POST /api/v1/orders/submit-order/ HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key ${ACME_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 30)}`,
    );
    const readyz = await rawSocket(url, 'GET /readyz HTTP/1.1\r\nHost: x\r\n');
    const idle = await rawSocket(url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    t.match(idle.received(), /^HTTP\/1\.1 200/, 'the idle connection answered before the signal');

    const signalled = Date.now();
    child.kill('SIGTERM');
    await idle.closed;
    t.ok(Date.now() - signalled < 1000, `the idle keep-alive connection is closed at once (${Date.now() - signalled} ms)`);
    readyz.socket.write('\r\n');
    await readyz.closed;
    t.match(readyz.received(), /^HTTP\/1\.1 503/, '/readyz, asked during the drain, answers 503');
    t.match(readyz.received(), /Connection: close/i, 'and closes its connection');
    t.equal(
      await fetch(`${url.origin}/healthz`).then(
        () => 'answered',
        () => 'refused',
      ),
      'refused',
      'a new connection is refused',
    );

    await Promise.all([stalledHeaders.closed, stalledBody.closed]);
    const { code, at } = await exited;
    t.equal(code, 0, 'exits 0 once the stalled sockets are cut');
    // The margin is for a machine under load; without the deadline the process waited for the client for ever.
    t.ok(at - signalled < 8000 + 4000, `within the 8 s shutdown timeout (${at - signalled} ms)`);
    t.equal(stalledBody.received(), '', 'the stalled submit got no answer');

    const references = (await allEvents(dataDir))
      .filter((event) => event.type === 'OrderSubmitted')
      .map((event) => (event.data as { order: { reference: string } }).order.reference);
    t.ok(references.includes('BEFORE-STALL'), 'the acknowledged order is stored');
    t.notOk(references.includes('NEVER-FINISHED'), 'the half-sent one is not');
  },
);
