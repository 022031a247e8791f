// Consolidation over real HTTP: three normal orders on a lane with a 5-second window, each about a third
// of a 40ft, ship in one 40ft under a parent order; a dangerous-goods order in the same window is
// planned alone; four ready events go out (three children and the parent), each once.
import t from 'tap';
import { ACME_KEY } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';
import { startWebhookReceiver } from '../e2e/loopback-peers.js';
import { consolidationSeed, SECRET, thirdOfA40ft } from './support.js';
import { readPdfText } from '../packing-instructions/inspect-pdf.js';
import { allEvents } from '../support/events.js';

t.test('three orders in one window ship in one 40ft under a parent; dangerous goods alone', async (t) => {
  const receiver = await startWebhookReceiver(SECRET);
  const service = await startTestService({ key: ACME_KEY, seed: consolidationSeed(receiver.url) });
  t.teardown(async () => {
    await service.stop();
    await receiver.stop();
    removeDataDir(service.dataDir);
  });
  const ids: Record<string, { order_id: number; service_ref: string }> = {};
  for (const reference of ['C-1', 'C-2', 'C-3']) {
    const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: thirdOfA40ft(reference) });
    t.equal(created.status, 201, `${reference} accepted`);
    ids[reference] = created.body;
  }
  const dg = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: thirdOfA40ft('C-DG', { shipment_type: 'dangerous_goods' }),
  });
  t.equal(dg.status, 201);

  const retrieve = async (id: number) => (await service.request('GET', `/api/v1/orders/detailed-orders/${id}/`)).body;
  // the dangerous-goods order does not wait for the window
  await eventually(async () => (await retrieve(dg.body.order_id)).status === 'planned', 20_000);
  t.equal((await retrieve(ids['C-1']!.order_id)).status, 'submitted', 'the window is still open when the dangerous-goods order is planned');

  await eventually(
    async () => (await Promise.all(['C-1', 'C-2', 'C-3'].map((r) => retrieve(ids[r]!.order_id)))).every((v) => v.status === 'planned'),
    30_000,
  );
  const children = await Promise.all(['C-1', 'C-2', 'C-3'].map((r) => retrieve(ids[r]!.order_id)));
  const parentRef = children[0].consolidated_into as string;
  t.match(parentRef, /^SO-\d{6}$/, 'each child shows the parent');
  t.ok(
    children.every((c) => c.consolidated_into === parentRef),
    'all three in one parent',
  );
  t.equal((await retrieve(dg.body.order_id)).consolidated_into, null, 'dangerous goods: never consolidated');

  const list = (await service.request('GET', '/api/v1/orders/detailed-orders/?page_size=100')).body;
  const listed = list.results.map((o: { service_ref: string }) => o.service_ref);
  t.notOk(
    children.some((c) => listed.includes(c.service_ref)),
    'the list omits the children',
  );
  const parent = list.results.find((o: { service_ref: string }) => o.service_ref === parentRef);
  t.ok(parent, 'the list shows the parent');
  t.same(
    parent.consolidated_orders,
    children.map((c) => c.service_ref),
    'with its children',
  );
  t.equal(list.count, listed.length, 'the count agrees with the list');
  t.equal(parent.status, 'planned');

  // one 40ft for the three together
  const plan = (await service.request('GET', `/api/v1/orders/load-plan/?order=${parentRef}`)).body;
  t.same(
    plan.containers.map((c: { code: string }) => c.code),
    ['40ft'],
    'one 40ft',
  );
  t.same(plan.unplaced, []);
  for (const [i, reference] of ['C-1', 'C-2', 'C-3'].entries()) {
    const contents = (await service.request('GET', `/api/v1/orders/pallet-contents/?order=${reference}`)).body;
    const units = contents.reduce(
      (s: number, p: { contents: { quantity: number }[] }) => s + p.contents.reduce((q, c) => q + c.quantity, 0),
      0,
    );
    t.equal(units, 512, `${reference}: its own pallets only (${contents.length} pallets, ${units} units)`);
    const own = (await service.request('GET', `/api/v1/orders/load-plan/?order=${reference}`)).body;
    t.equal(own.containers.length, 1, `${reference}: the shared container`);
    const mine = own.containers[0].placements.filter((p: { order: string }) => p.order === children[i].service_ref);
    t.equal(mine.length, contents.length, `${reference}: its pallets are marked in the shared container`);
  }

  // the child's 3D viewer: its own cargo in colour, the other orders' grey
  const childPlan = (await service.request('GET', '/api/v1/orders/load-plan/?order=C-2')).body;
  const page = await (await fetch(childPlan.viewer_url)).text();
  const data = JSON.parse(/<script type="application\/json" id="viewer-data">(.*?)<\/script>/s.exec(page)![1]!);
  const shared = data.load_plan.containers[0].placements as { ref: string; order: string }[];
  const grey = data.legend.find((l: { label: string }) => /Other orders/.test(l.label))?.colour;
  t.ok(grey, "the legend names the other orders' cargo");
  t.ok(
    shared.filter((p) => p.order !== children[1].service_ref).every((p) => data.colours.placements[p.ref] === grey),
    'other orders grey',
  );
  t.ok(
    shared.filter((p) => p.order === children[1].service_ref).every((p) => data.colours.placements[p.ref] !== grey),
    'its own in colour',
  );

  // the child's PDF shows the shared container and names each item's order
  const pdf = await fetch(`${service.url}/api/v1/orders/download-packing-instructions/?order=C-2`, {
    headers: { authorization: `Api-Key ${ACME_KEY}` },
  });
  t.equal(pdf.status, 200);
  const text = (await readPdfText(Buffer.from(await pdf.arrayBuffer()))).text.replace(/\s+/g, ' ');
  t.match(text, /Shared container of a consolidated shipment/, 'the container is marked shared');
  for (const c of children) t.match(text, new RegExp(`${c.service_ref} 8 placements`), `${c.service_ref}'s cargo counted`);
  t.match(text, new RegExp(`AP\\d+ \\(${children[1].service_ref}\\)`), 'the loading sequence names the order of each item');

  // four ready events: three children and the parent, each once
  await eventually(async () => new Set(receiver.requests.map((r) => r.id)).size >= 5, 20_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const announced = receiver.requests.map((r) => JSON.parse(r.body).data.order_id as string);
  const expected = [...children.map((c) => c.service_ref), parentRef, dg.body.service_ref].sort();
  t.same([...announced].sort(), expected, 'one ready event per child, the parent and the dangerous-goods order');

  // Planner runs count the window's too: one for the three together, one for the dangerous-goods order.
  const metrics = await (await fetch(`${service.url}/metrics`)).text();
  const runs = Object.fromEntries(
    [...metrics.matchAll(/^orders_planner_runs_total\{outcome="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
  );
  t.same(runs, { stored: 2 }, 'two planner runs, both stored, none failed or discarded');
});

t.test('no saving, no consolidation: two orders that each fill a 40ft are planned alone, and the decision is recorded', async (t) => {
  const service = await startTestService({ key: ACME_KEY, seed: consolidationSeed(undefined, 2) });
  t.teardown(async () => {
    await service.stop();
    removeDataDir(service.dataDir);
  });
  // 25 EUR pallets of 64 units fill a 40ft floor
  const ids: number[] = [];
  for (const reference of ['FULL-1', 'FULL-2']) {
    const created = await service.request('POST', '/api/v1/orders/submit-order/', {
      body: thirdOfA40ft(reference, { order_items: [{ item: 'SKU-3001', quantity: 1600 }] }),
    });
    t.equal(created.status, 201);
    ids.push(created.body.order_id as number);
  }
  const retrieve = async (id: number) => (await service.request('GET', `/api/v1/orders/detailed-orders/${id}/`)).body;
  await eventually(async () => (await Promise.all(ids.map(retrieve))).every((v) => v.status === 'planned'), 30_000);
  for (const id of ids) t.equal((await retrieve(id)).consolidated_into, null, `order ${id} planned alone`);
  const list = (await service.request('GET', '/api/v1/orders/detailed-orders/')).body;
  t.equal(list.count, 2, 'both listed, no parent');
  const events = await allEvents(service.dataDir);
  const decision = events.find((e) => e.type === 'ConsolidationPlanned')?.data as {
    decision: string;
    containers_together: number;
    containers_alone: number;
    parent: unknown;
  };
  t.match(
    decision,
    { decision: 'alone', containers_together: 2, containers_alone: 2, parent: null },
    'the decision and its figures are in the log',
  );
});

t.test('a window closes early when its orders fill the containers they asked for', async (t) => {
  const service = await startTestService({ key: ACME_KEY, seed: consolidationSeed(undefined, 600) });
  t.teardown(async () => {
    await service.stop();
    removeDataDir(service.dataDir);
  });
  // 50 crates of 2 m3 each, 40ft with no count (up to 5, 338 m3): the third order brings the window to 300 m3, over 85 %
  const crates = {
    order_items: [],
    loose_boxes: [{ name: 'Crate', length: 200, width: 100, height: 100, weight: 200, count: 50 }],
    order_containers: [{ code: '40ft' }],
  };
  const started = Date.now();
  const ids: number[] = [];
  for (const reference of ['CRATES-1', 'CRATES-2', 'CRATES-3']) {
    const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: thirdOfA40ft(reference, crates) });
    t.equal(created.status, 201, JSON.stringify(created.body));
    ids.push(created.body.order_id as number);
  }
  const retrieve = async (id: number) => (await service.request('GET', `/api/v1/orders/detailed-orders/${id}/`)).body;
  await eventually(async () => (await Promise.all(ids.map(retrieve))).every((v) => v.status === 'planned'), 60_000);
  t.ok(Date.now() - started < 600_000, 'planned long before the 600 s window ran out');
  const closed = (await allEvents(service.dataDir)).find((e) => e.type === 'ConsolidationClosed')?.data as {
    reason: string;
    orders: unknown[];
  };
  t.equal(closed.reason, 'containers_full');
  t.equal(closed.orders.length, 3);
});

t.test('an order that books its containers by count is planned alone at once, not held for a window', async (t) => {
  const service = await startTestService({ key: ACME_KEY, seed: consolidationSeed(undefined, 600) });
  t.teardown(async () => {
    await service.stop();
    removeDataDir(service.dataDir);
  });
  const created = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: thirdOfA40ft('BOOKED-1', { order_containers: [{ code: '40ft', count: 1 }] }),
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const started = Date.now();
  await eventually(
    async () =>
      (await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id as number}/`)).body.status === 'planned',
    60_000,
  );
  t.ok(Date.now() - started < 600_000, 'planned without waiting out the 600 s window');
  const events = await allEvents(service.dataDir);
  t.notOk(
    events.some((e) => e.type === 'OrderJoinedConsolidation' || e.type === 'ConsolidationOpened'),
    'no window was opened or joined',
  );
});

t.test('amended and cancelled orders leave the window; a cancel after the shipment went out dissolves it', async (t) => {
  const receiver = await startWebhookReceiver(SECRET);
  const service = await startTestService({ key: ACME_KEY, seed: consolidationSeed(receiver.url, 4) });
  t.teardown(async () => {
    await service.stop();
    await receiver.stop();
    removeDataDir(service.dataDir);
  });
  const ids: Record<string, { order_id: number; service_ref: string }> = {};
  for (const reference of ['L-A', 'L-B', 'L-C', 'L-D']) {
    ids[reference] = (await service.request('POST', '/api/v1/orders/submit-order/', { body: thirdOfA40ft(reference) })).body;
  }
  const path = (r: string) => `/api/v1/orders/detailed-orders/${ids[r]!.order_id}/`;
  const retrieve = async (r: string) => (await service.request('GET', path(r))).body;
  // while the window is open: L-A is cancelled, L-B amended (planned alone at once, with its new cargo)
  t.equal((await service.request('POST', `${path('L-A')}cancel/`)).status, 200);
  const etag = (await service.request('GET', path('L-B'))).headers.get('etag')!;
  const amended = await service.request('PUT', path('L-B'), {
    body: thirdOfA40ft('L-B', { order_items: [{ item: 'SKU-3001', quantity: 256 }] }),
    headers: { 'if-match': etag },
  });
  t.equal(amended.status, 200);
  await eventually(async () => (await retrieve('L-B')).status === 'planned', 20_000);
  t.equal((await retrieve('L-C')).status, 'submitted', 'the amended order did not wait for the window');
  t.equal((await retrieve('L-B')).consolidated_into, null, 'planned alone');

  await eventually(async () => (await retrieve('L-D')).status === 'planned', 30_000);
  const [c, d] = [await retrieve('L-C'), await retrieve('L-D')];
  const parentRef = c.consolidated_into as string;
  t.ok(parentRef && d.consolidated_into === parentRef, 'the two orders left in the window ship together');
  const parentId = Number(parentRef.slice(3));
  const parent = (await service.request('GET', `/api/v1/orders/detailed-orders/${parentId}/`)).body;
  t.same(parent.consolidated_orders, [ids['L-C']!.service_ref, ids['L-D']!.service_ref], 'without the cancelled and the amended order');
  t.equal((await retrieve('L-A')).status, 'cancelled');
  const units = async (r: string) =>
    ((await service.request('GET', `/api/v1/orders/pallet-contents/?order=${r}`)).body as { contents: { quantity: number }[] }[])
      .flatMap((p) => p.contents)
      .reduce((s, x) => s + x.quantity, 0);
  t.equal(await units('L-B'), 256, "the amended order's own new cargo");

  // the shipment went out: L-C is cancelled, so the shipment is dissolved and L-D planned again alone
  t.equal((await service.request('POST', `${path('L-C')}cancel/`, { body: { reason: 'short shipped' } })).status, 200);
  await eventually(
    async () => (await service.request('GET', `/api/v1/orders/detailed-orders/${parentId}/`)).body.status === 'cancelled',
    20_000,
  );
  const dissolved = (await service.request('GET', `/api/v1/orders/detailed-orders/${parentId}/`)).body;
  t.match(dissolved.cancellation_reason, new RegExp(`${parentRef} was dissolved: ${ids['L-C']!.service_ref} left it`));
  await eventually(async () => {
    const now = await retrieve('L-D');
    return now.status === 'planned' && now.consolidated_into === null;
  }, 20_000);
  const plan = (await service.request('GET', '/api/v1/orders/load-plan/?order=L-D')).body;
  const owners = new Set(
    plan.containers.flatMap((k: { placements: { order?: string }[] }) => k.placements.map((p) => p.order ?? ids['L-D']!.service_ref)),
  );
  t.same([...owners], [ids['L-D']!.service_ref], "L-D's new plan holds only its own cargo");
  t.equal(await units('L-D'), 512);
  t.equal(
    (await service.request('GET', `/api/v1/orders/load-plan/?order=${parentRef}`)).status,
    400,
    "the dissolved shipment's plan is void",
  );
  const history = (await service.request('GET', `${path('L-D')}history/`)).body.map((e: { type: string }) => e.type);
  t.same(history.slice(-2), ['OrderPlanWithdrawn', 'OrderPlanned']);

  // announced: L-A, L-C and the parent cancelled; L-D ready twice (shared, then alone)
  await eventually(async () => receiver.requests.filter((r) => r.body.includes('order.cancelled')).length >= 3, 20_000);
  const kinds = (ref: string) =>
    receiver.requests.filter((r) => r.status === 200 && JSON.parse(r.body).data.order_id === ref).map((r) => JSON.parse(r.body).type);
  t.same(kinds(ids['L-A']!.service_ref), ['order.cancelled']);
  t.same(kinds(parentRef), ['packing_instructions.ready', 'order.cancelled']);
  await eventually(async () => kinds(ids['L-D']!.service_ref).length === 2, 20_000);
  t.same(kinds(ids['L-D']!.service_ref), ['packing_instructions.ready', 'packing_instructions.ready']);
});
