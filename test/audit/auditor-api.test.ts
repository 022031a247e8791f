// The three questions of issue 26 asked of a running service: an order as it stood at each moment of its
// life (compared with what the live read model answered at that moment), the signed digest of the log and
// its public key, and an order's export checked offline by scripts/verify-export.mjs, which any change to
// any line makes fail.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createPublicKey, verify } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import { ACME_KEY, OTHER_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';
import { embeddedEnv } from '../support/embedded-env.js';

const VERIFY_EXPORT = fileURLToPath(new URL('../../../scripts/verify-export.mjs', import.meta.url));
const { verifyExport } = (await import(pathToFileURL(VERIFY_EXPORT).href)) as {
  verifyExport(text: string, key: string): { ok: boolean; message: string };
};

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});

const retrieve = (id: number, asOf?: string, key = ACME_KEY) =>
  service.request('GET', `/api/v1/orders/detailed-orders/${id}/${asOf === undefined ? '' : `?as_of=${encodeURIComponent(asOf)}`}`, { key });
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

// The order's life, with what retrieve answered (the live read model) just after each step, and the span
// of wall-clock time the answer was made in: a plan may be recorded while retrieve answers (the planner
// runs beside it, and replans an amended order in a few ms), so the moment it answered for is somewhere
// in that span, not at a clock read after it, or a little before it when the read model has yet to
// catch up with the log.
const MAX_READ_MODEL_LAG_MS = 500;
type Moment = { from: number; to: number; view: Record<string, unknown> };
const answeredNow = async (): Promise<Moment> => {
  const from = Date.now();
  const view = (await retrieve(id)).body as Record<string, unknown>;
  return { from, to: Date.now(), view };
};
const beforeSubmit = new Date().toISOString();
await pause();
const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'AUDIT-1' }) });
const id = created.body.order_id as number;
const live: Record<string, Moment> = {};
live.submitted = await answeredNow();
await eventually(async () => (await retrieve(id)).body.status === 'planned', 60_000);
await pause();
live.planned = await answeredNow();
await pause();
const pdf = await fetch(`${service.url}/api/v1/orders/download-packing-instructions/?order=AUDIT-1`, {
  headers: { authorization: `Api-Key ${ACME_KEY}` },
});
await pdf.arrayBuffer();
await eventually(async () => (await retrieve(id)).body.packing_instructions_downloaded === true);
await pause();
live.downloaded = await answeredNow();
// Issue 59: amended (and planned again), then cancelled.
await pause();
const amendedBody = acmeOrder({ reference: 'AUDIT-1', order_items: [{ item: 'SKU-1001', quantity: 30 }] });
const amendAnswer = await service.request('PUT', `/api/v1/orders/detailed-orders/${id}/`, {
  body: amendedBody,
  headers: { 'if-match': '"2"' },
});
live.amended = await answeredNow();
await eventually(async () => (await retrieve(id)).body.status === 'planned', 60_000);
await pause();
live.replanned = await answeredNow();
await pause();
await service.request('POST', `/api/v1/orders/detailed-orders/${id}/cancel/`, { body: { reason: 'audit trail' } });
live.cancelled = await answeredNow();

t.test('as_of: the order as the live read model answered at each moment of its life', async (t) => {
  t.equal(live.submitted!.view.status, 'submitted', 'the read model showed the submit before the plan');
  for (const [moment, { from, to, view }] of Object.entries(live)) {
    // as_of has millisecond steps, and folds the log, which the read model follows a few ms behind when a
    // plan was just recorded: one of the milliseconds up to the answer (the service's clock may be up to a
    // millisecond ahead of this process's) shows what retrieve answered, searched from the newest back.
    let at = to + 2;
    let asOf = await retrieve(id, new Date(at).toISOString());
    while (at > from - MAX_READ_MODEL_LAG_MS && !isDeepStrictEqual(asOf.body, view))
      asOf = await retrieve(id, new Date(--at).toISOString());
    t.equal(asOf.status, 200, moment);
    t.same(asOf.body, view, `${moment}: as_of ${new Date(at).toISOString()} is what retrieve answered then (in ${to - from} ms)`);
  }
  t.match(live.planned!.view, { status: 'planned', packing_instructions_downloaded: false });
  t.match(live.downloaded!.view, { status: 'planned', packing_instructions_downloaded: true });
  t.equal(amendAnswer.status, 200);
  // Retrieve just after the amend may already show the replan (a small order is planned again in a few
  // ms); the log holds the state between them all the same, at one of the milliseconds in between.
  t.match(live.amended!.view, { order_items: [{ quantity: '30.000000' }] });
  let between: Record<string, unknown> | undefined;
  for (let at = live.downloaded!.to; at <= live.replanned!.from && between?.revision !== 3; at++) {
    between = (await retrieve(id, new Date(at).toISOString())).body as Record<string, unknown>;
  }
  t.match(between, { status: 'submitted', revision: 3, order_items: [{ quantity: '30.000000' }] }, 'amended, before its plan');
  t.match(live.replanned!.view, { status: 'planned', revision: 4 });
  t.match(live.cancelled!.view, { status: 'cancelled', cancellation_reason: 'audit trail', revision: 5 });
  const now = await retrieve(id, new Date().toISOString().replace('Z', '+00:00'));
  t.same(now.body, (await retrieve(id)).body, 'now, with an offset: as retrieve');
});

t.test("as_of before the order existed: 404; another group's order: 403 as retrieve", async (t) => {
  const before = await retrieve(id, beforeSubmit);
  t.equal(before.status, 404);
  t.match(before.body.detail, /did not exist yet/);
  t.equal((await retrieve(id, new Date(live.planned!.to).toISOString(), OTHER_KEY)).status, 403);
  t.equal((await retrieve(999, new Date(live.planned!.to).toISOString())).status, 404);
  t.equal((await retrieve(id, new Date(live.planned!.to).toISOString(), 'no-such-key-00000000000')).status, 401);
});

t.test('as_of unparseable or in the future: 400 naming the parameter', async (t) => {
  for (const bad of [
    'yesterday',
    '2026-11-25',
    '2026-11-25T14:30:00',
    '2026-02-31T10:00:00Z',
    '2026-11-25T25:00:00Z',
    '',
    new Date(Date.now() + 3_600_000).toISOString(),
  ]) {
    const response = await retrieve(id, bad);
    t.equal(response.status, 400, bad);
    t.match(response.body, { as_of: [String] }, bad);
  }
  t.match((await retrieve(id, '2999-01-01T00:00:00Z')).body.as_of[0], /future/);
});

t.test('the digest: head hash and position of the log, signed with the key the public key names', async (t) => {
  const key = await service.request('GET', '/api/v1/audit/public-key', { key: null });
  t.equal(key.status, 200, 'the public key needs no API key');
  t.equal(key.body.algorithm, 'Ed25519');
  t.equal((await service.request('GET', '/api/v1/audit/digest', { key: null })).status, 401, 'the digest needs an API key');
  const digest = await service.request('GET', '/api/v1/audit/digest');
  t.equal(digest.status, 200);
  t.match(digest.body, { chain: 'log', position: /^\d+$/, head_hash: /^[0-9a-f]{64}$/, key_fingerprint: key.body.key_fingerprint });
  t.equal(
    digest.body.signed,
    `orders-audit-digest v1\nchain: log\nposition: ${digest.body.position}\nhead: ${digest.body.head_hash}\ntime: ${digest.body.time}\n`,
  );
  const publicKey = createPublicKey(key.body.public_key_pem);
  t.ok(verify(null, Buffer.from(digest.body.signed), publicKey, Buffer.from(digest.body.signature, 'base64')), 'the signature verifies');
  t.notOk(
    verify(
      null,
      Buffer.from(digest.body.signed.replace(/position: \d+/, 'position: 1')),
      publicKey,
      Buffer.from(digest.body.signature, 'base64'),
    ),
    'not for another text',
  );
});

t.test('the export: verified offline; any change to any line fails the check', async (t) => {
  const key = (await service.request('GET', '/api/v1/audit/public-key', { key: null })).body;
  const response = await service.request('GET', `/api/v1/orders/detailed-orders/${id}/history/export`);
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /^application\/jsonl/);
  const text = response.body as string;
  const lines = text.trimEnd().split('\n');
  const events = lines.slice(0, -1).map((line) => JSON.parse(line));
  t.same(
    events.map((event) => event.type),
    ['OrderSubmitted', 'OrderPlanned', 'PackingInstructionsDownloaded', 'OrderAmended', 'OrderPlanned', 'OrderCancelled'],
  );
  t.equal(events[4].data.includes('"version":1'), true, 'the second plan names the version it is for');
  t.equal(verifyExport(text, JSON.stringify(key)).ok, true, verifyExport(text, JSON.stringify(key)).message);

  // The script as an auditor runs it.
  writeFileSync(join(service.dataDir, 'export.jsonl'), text);
  writeFileSync(join(service.dataDir, 'audit.pub'), key.public_key_pem);
  const run = spawnSync(process.execPath, [VERIFY_EXPORT, join(service.dataDir, 'export.jsonl'), join(service.dataDir, 'audit.pub')], {
    encoding: 'utf8',
  });
  t.equal(run.status, 0, run.stdout + run.stderr);
  t.match(run.stdout, /^export verified: 6 events of order:/);

  const edits: Record<string, (line: Record<string, any>) => void> = {
    'a digit of the data': (line) => (line.data = line.data.replace(/\d/, (d: string) => String((Number(d) + 1) % 10))),
    'the hash, recomputed by the editor for the changed data': (line) =>
      (line.hash = line.hash.replace(/^./, (c: string) => (c === '0' ? '1' : '0'))),
    'the position': (line) => (line.position = String(Number(line.position) + 1)),
    'the type': (line) => (line.type = `${line.type}X`),
    'the time': (line) => (line.recorded_at_us = String(BigInt(line.recorded_at_us) + 1n)),
    'the readable time': (line) => (line.recorded_at = '2000-01-01T00:00:00.000Z'),
    'a field added': (line) => (line.note = 'x'),
  };
  for (const [i, line] of lines.slice(0, -1).entries()) {
    for (const [what, edit] of Object.entries(edits)) {
      const changed = JSON.parse(line);
      edit(changed);
      const tampered = `${[...lines.slice(0, i), JSON.stringify(changed), ...lines.slice(i + 1)].join('\n')}\n`;
      t.equal(
        verifyExport(tampered, key.public_key_pem).ok,
        false,
        `line ${i + 1}, ${what}: ${verifyExport(tampered, key.public_key_pem).message}`,
      );
    }
    const removed = `${[...lines.slice(0, i), ...lines.slice(i + 1)].join('\n')}\n`;
    t.equal(verifyExport(removed, key.public_key_pem).ok, false, `line ${i + 1} removed`);
  }
  const swapped = `${[lines[1], lines[0], ...lines.slice(2)].join('\n')}\n`;
  t.equal(verifyExport(swapped, key.public_key_pem).ok, false, 'two lines swapped');
  const digest = JSON.parse(lines.at(-1)!);
  for (const [what, edit] of Object.entries({
    'the signed text': (d: any) => (d.signed = d.signed.replace(/position: \d+/, 'position: 1')),
    'the signature': (d: any) => (d.signature = Buffer.from('x'.repeat(64)).toString('base64')),
    'the head hash copy': (d: any) => (d.head_hash = '0'.repeat(64)),
    'an event in the list': (d: any) => (d.events[0].hash = '0'.repeat(64)),
  })) {
    const changed = structuredClone(digest);
    edit(changed.digest);
    const tampered = `${[...lines.slice(0, -1), JSON.stringify(changed)].join('\n')}\n`;
    t.equal(verifyExport(tampered, key.public_key_pem).ok, false, `the digest line, ${what}`);
  }
  t.equal(
    (await service.request('GET', `/api/v1/orders/detailed-orders/${id}/history/export`, { key: OTHER_KEY })).status,
    403,
    'scope as history',
  );
});

t.test('verify-history holds over the log with the amend and the cancel, and the digest lists their hashes', async (t) => {
  const run = spawnSync(process.execPath, [fileURLToPath(new URL('../../src/verify-history.js', import.meta.url))], {
    env: embeddedEnv({ ORDERS_DATA_DIR: service.dataDir }),
    encoding: 'utf8',
  });
  t.equal(run.status, 0, run.stdout + run.stderr);
  t.match(run.stdout, /the hash chain holds over \d+ events/);
  const lines = ((await service.request('GET', `/api/v1/orders/detailed-orders/${id}/history/export`)).body as string)
    .trimEnd()
    .split('\n');
  const { digest } = JSON.parse(lines.at(-1)!);
  for (const line of lines
    .slice(0, -1)
    .map((l) => JSON.parse(l))
    .filter((e) => ['OrderAmended', 'OrderCancelled'].includes(e.type)))
    t.match(digest.signed, new RegExp(`event: ${line.position} ${line.hash}`), `the signed digest names the ${line.type}`);
});

t.test('the OpenAPI document describes as_of, the digest, the public key and the export', async (t) => {
  const document = (await service.request('GET', '/api/v1/openapi.json', { key: null })).body;
  t.ok(
    document.paths['/api/v1/orders/detailed-orders/{id}/'].get.parameters.some((parameter: { name: string }) => parameter.name === 'as_of'),
  );
  t.ok(document.paths['/api/v1/orders/detailed-orders/{id}/'].get.responses['400']);
  t.ok(document.paths['/api/v1/audit/digest'].get);
  t.same(document.paths['/api/v1/audit/public-key'].get.security, []);
  t.ok(document.paths['/api/v1/orders/detailed-orders/{id}/history/export'].get);
});
