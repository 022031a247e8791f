// Schemathesis, a checker nobody here wrote, against the served OpenAPI document: every check, every
// phase (examples, coverage, fuzzing, and stateful runs through the document's links from a submit to
// retrieve, history, export, load plan, pallet contents and download), with an API key, on a service
// holding orders of both company groups of the test seed. Any failure it reports fails this test.
// schemathesis/schemathesis.toml says how many examples each phase draws and why; schemathesis/hooks.py
// lets the stateful phase's submits be stored, so that it has links to follow.
// `.ci/run` installs the version pinned in schemathesis/requirements.txt under ~/.cache; elsewhere
// the test runs when that (or SCHEMATHESIS) is there, and is skipped saying so when not; under CI a
// missing schemathesis fails.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ACME_KEY, acmeOrder, OTHER_KEY } from '../support/seed.js';
import { removeDataDir, startTestService } from '../support/service.js';

t.setTimeout(600_000);
const here = fileURLToPath(new URL('../../../test/api/schemathesis/', import.meta.url));
const pinned = /^schemathesis==(\S+)$/m.exec(readFileSync(join(here, 'requirements.txt'), 'utf8'))![1]!;
const binary = process.env.SCHEMATHESIS ?? join(homedir(), '.cache', 'orders-schemathesis', 'bin', 'schemathesis');

const version = existsSync(binary) ? /version (\S+)/.exec(spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout)?.[1] : undefined;
const missing =
  version === undefined
    ? `schemathesis ${pinned} is not installed at ${binary} (.ci/run installs it: python3 -m venv ~/.cache/orders-schemathesis && ~/.cache/orders-schemathesis/bin/pip install -r test/api/schemathesis/requirements.txt)`
    : version !== pinned
      ? `${binary} is schemathesis ${version}, not the pinned ${pinned}`
      : undefined;

if (missing) {
  // In CI a missing checker is a broken set-up, not a reason to pass.
  if (process.env.CI) t.fail(missing);
  else t.test('schemathesis against the served OpenAPI document', { skip: missing }, async () => {});
} else {
  t.test(`schemathesis ${pinned}: all checks, all phases, stateful included, 0 failures`, async (t) => {
    const service = await startTestService({ key: ACME_KEY });
    t.teardown(async () => {
      await service.stop();
      removeDataDir(service.dataDir);
    });
    // Orders of both groups, so that list, retrieve and the lookups answer with data from the first
    // request, and another group's order is there to be refused.
    for (const [key, order] of [
      [ACME_KEY, acmeOrder({ reference: 'ST-ACME-1' })],
      [ACME_KEY, acmeOrder({ reference: 'ST-ACME-2', transportation_mode: 'TruckFTL', order_containers: [{ code: '20ft' }] })],
      [
        OTHER_KEY,
        {
          supplier_name: 'Other Supplier',
          consignee_name: 'Other Consignee',
          reference: 'ST-OTHER-1',
          transportation_mode: 'OceanFCL',
          order_items: [{ item: 'SKU-1001', quantity: 10 }],
          order_containers: [{ code: '40ft-HC' }],
        },
      ],
    ] as const) {
      const created = await service.request('POST', '/api/v1/orders/submit-order/', { key, body: order });
      t.equal(created.status, 201, `seeded ${String(order.reference)}`);
    }

    const args = [
      '--config-file',
      join(here, 'schemathesis.toml'),
      'run',
      `${service.url}/api/v1/openapi.json`,
      '--header',
      `Authorization: Api-Key ${ACME_KEY}`,
      '--checks',
      'all',
      '--phases',
      'examples,coverage,fuzzing,stateful',
      // How many examples each phase draws is in schemathesis.toml.
      '--seed',
      String(Date.now() % 100_000),
      '--no-color',
    ];
    // tap sets FORCE_COLOR for its children: schemathesis would then draw progress bars with cursor moves.
    const { FORCE_COLOR: _forced, COLOR: _color, ...env } = process.env;
    const started = performance.now();
    const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
      // Its cache (.schemathesis/) goes to the service's scratch directory, not the checkout.
      const child = spawn(binary, args, {
        cwd: service.dataDir,
        env: {
          ...env,
          NO_COLOR: '1',
          SCHEMATHESIS_TELEMETRY: 'false',
          SCHEMATHESIS_HOOKS: join(here, 'hooks.py'),
          // hooks.py reads an order before the stateful phase amends it
          ORDERS_ST_URL: service.url,
          ORDERS_ST_KEY: ACME_KEY,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('close', (code) => resolve({ code, output: plainText(output) }));
    });
    // Its summary (phases, links covered, failures with a curl line each) belongs in the test's output.
    t.comment(`schemathesis ${args.join(' ')}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    t.comment(run.output.slice(Math.max(0, run.output.indexOf('Examples ('))).trim());
    t.equal(run.code, 0, 'schemathesis exits 0: no failure');
    t.notMatch(run.output, /\d+ failures?\b/, 'no failure in its summary');
    for (const phase of ['Examples', 'Coverage', 'Fuzzing', 'Stateful'])
      t.match(run.output, new RegExp(`✅\\s+${phase} \\(in `), `the ${phase.toLowerCase()} phase ran and passed`);
    const links = Number(/API Links:\s+(\d+) covered/.exec(run.output)?.[1] ?? 0);
    t.ok(links >= 1, `the stateful phase followed links from orders it stored: ${links} of the links covered`);
    // Its own orders (hooks.py gives them ST-<16 hex> references), amended and cancelled through the links.
    const stored = (await service.request('GET', '/api/v1/orders/detailed-orders/?paginate=false', { key: ACME_KEY })).body as {
      id: number;
      reference: string;
      status: string;
    }[];
    const own = stored.filter((o) => /^ST-[0-9a-f]{16}$/.test(o.reference));
    const histories = await Promise.all(
      own.map(async (o) => (await service.request('GET', `/api/v1/orders/detailed-orders/${o.id}/history/`, { key: ACME_KEY })).body),
    );
    const types = histories.flat().map((e: { type: string }) => e.type);
    const count = (type: string) => types.filter((x) => x === type).length;
    t.comment(`stateful orders: ${own.length}; amended ${count('OrderAmended')} times, cancelled ${count('OrderCancelled')}`);
    t.ok(count('OrderCancelled') >= 1, 'the stateful phase cancelled an order it stored (cancelOrder reached through a link)');
    t.ok(count('OrderAmended') >= 1, 'the stateful phase amended an order it stored (amendOrder reached through a link)');
  });
}

/** What a terminal would show at the end: no colour or cursor codes, each line as its last carriage return left it. */
function plainText(output: string): string {
  return output
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split('\n')
    .map((line) => line.slice(line.lastIndexOf('\r') + 1))
    .join('\n')
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}
