// SIGTERM: the service stops accepting, answers the request in flight, stops its consumers at a
// checkpoint, closes its stores and exits 0; what it acknowledged is there after a restart.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACME_KEY, acmeOrder, testSeed } from '../support/seed.js';
import { removeDataDir, tempDataDir } from '../support/service.js';
import { allEvents } from '../support/events.js';

const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const dataDir = tempDataDir();
writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(testSeed()));
t.teardown(() => removeDataDir(dataDir));

function startChild(): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ORDERS_DATA_DIR: dataDir, ORDERS_SEED_FILE: join(dataDir, 'seed.json'), LOG_LEVEL: 'silent' },
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
    const req = request({ host: url.hostname, port: url.port, method: 'POST', path: '/api/v1/orders/submit-order/', headers: { authorization: `Api-Key ${ACME_KEY}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.write(body.slice(0, 40));
    setTimeout(() => {
      child.kill('SIGTERM');
      setTimeout(async () => {
        // The process is still up, waiting for this request: a new connection must be refused by now.
        refusedWhileDraining = await fetch(`${url.origin}/healthz`).then(() => false, () => true);
        req.end(body.slice(40));
      }, 300);
    }, 100);
  });

  const answered = await response;
  t.equal(answered.status, 201, answered.body);
  t.equal(refusedWhileDraining, true, 'a new connection while the request in flight drains is refused');
  t.equal(await exited, 0, 'exits 0');

  const events = await allEvents(dataDir);
  t.ok(events.some((event) => event.type === 'OrderSubmitted' && (event.data as { order: { reference: string } }).order.reference === 'IN-FLIGHT'), 'the acknowledged order is stored');

  const again = await startChild();
  const read = await fetch(`${again.url.origin}/api/v1/orders/detailed-orders/?search=IN-FLIGHT`, { headers: { authorization: `Api-Key ${ACME_KEY}` } });
  t.equal(((await read.json()) as { count: number }).count, 1, 'and visible after a restart');
  again.child.kill('SIGTERM');
  t.equal(await new Promise((resolve) => again.child.once('exit', resolve)), 0);
});
