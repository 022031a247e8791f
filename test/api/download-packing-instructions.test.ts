// Spec 4.5 as this service defines it: the same lookup as pallet contents, 400 until ready, then a
// real PDF; each download is recorded and the order's flag reads true from then on.
import t from 'tap';
import { ACME_KEY, OTHER_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';
import { readPdfText } from '../packing-instructions/inspect-pdf.js';

const service = await startTestService({ key: ACME_KEY });
t.teardown(async () => {
  await service.stop();
  removeDataDir(service.dataDir);
});
const download = async (order: string, key = ACME_KEY) => {
  const response = await fetch(`${service.url}/api/v1/orders/download-packing-instructions/?order=${encodeURIComponent(order)}`, {
    headers: { authorization: `Api-Key ${key}` },
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    disposition: response.headers.get('content-disposition'),
    body: Buffer.from(await response.arrayBuffer()),
  };
};

t.test('submit, wait for the plan, download the PDF, read it back, and see the flag flip', async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({
      reference: 'DL-1',
      order_items: [
        { item: 'SKU-1001', quantity: 96, purchase_order: 'PO-77', line_item_number: '3' },
        { item: 'SKU-1002', quantity: 30 },
      ],
      loose_boxes: [{ name: 'Spare parts', length: 50, width: 40, height: 30, weight: 12, count: 6 }],
    }),
  });
  t.equal(created.status, 201);

  await eventually(async () => (await service.request('GET', '/api/v1/orders/pallet-contents/?order=DL-1')).status === 200);
  const before = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`);
  t.equal(before.body.packing_instructions_downloaded, false);

  const pdf = await download(created.body.service_ref);
  t.equal(pdf.status, 200);
  t.equal(pdf.type, 'application/pdf');
  t.equal(pdf.disposition, `attachment; filename="packing-instructions-${created.body.service_ref}.pdf"`);
  t.equal(pdf.body.subarray(0, 5).toString(), '%PDF-');

  const after = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`);
  t.equal(after.body.packing_instructions_downloaded, true);
  t.not(after.body.updated_at, before.body.updated_at);
  const history = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/history/`);
  t.same(
    history.body.map((event: { type: string }) => event.type),
    ['OrderSubmitted', 'OrderPlanned', 'PackingInstructionsDownloaded'],
  );

  // Read last: pdf.js holds this process's event loop for a while, and a keep-alive socket the
  // service closes meanwhile would be reused by the next request and reset.
  const { text } = await readPdfText(pdf.body);
  for (const expected of [
    created.body.service_ref,
    'DL-1',
    'Acme Supplier Ltd',
    'Globex Consignee GmbH',
    '40ft',
    'AP1',
    'SKU-1001',
    'SKU-1002',
    'PO-77',
    'Spare parts',
  ]) {
    t.ok(text.includes(expected), `the PDF says ${expected}`);
  }
});

t.test('HEAD answers the headers of the download and records nothing (link previews, download managers)', async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'DL-HEAD' }) });
  await eventually(async () => (await service.request('GET', '/api/v1/orders/pallet-contents/?order=DL-HEAD')).status === 200);
  for (let i = 0; i < 3; i++) {
    const response = await fetch(`${service.url}/api/v1/orders/download-packing-instructions/?order=DL-HEAD`, {
      method: 'HEAD',
      headers: { authorization: `Api-Key ${ACME_KEY}` },
    });
    t.equal(response.status, 200);
    t.equal(response.headers.get('content-type'), 'application/pdf');
    t.equal(response.headers.get('content-disposition'), `attachment; filename="packing-instructions-${created.body.service_ref}.pdf"`);
  }
  const order = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/`);
  t.equal(order.body.packing_instructions_downloaded, false);
  const history = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/history/`);
  t.same(
    history.body.map((event: { type: string }) => event.type),
    ['OrderSubmitted', 'OrderPlanned'],
  );
  const head = await fetch(`${service.url}/api/v1/orders/download-packing-instructions/?order=NOPE`, {
    method: 'HEAD',
    headers: { authorization: `Api-Key ${ACME_KEY}` },
  });
  t.equal(head.status, 400, 'an unknown order is refused for HEAD as for GET');
});

t.test('a download the client gives up on before it has the file records nothing', async (t) => {
  const created = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'DL-ABORT' }) });
  await eventually(async () => (await service.request('GET', '/api/v1/orders/pallet-contents/?order=DL-ABORT')).status === 200);
  // The request goes out, and the connection is closed before the answer: the PDF takes a while to render.
  const { request } = await import('node:http');
  await new Promise<void>((resolve) => {
    const url = new URL(`${service.url}/api/v1/orders/download-packing-instructions/?order=DL-ABORT`);
    const req = request(url, { headers: { authorization: `Api-Key ${ACME_KEY}` } });
    req.on('error', () => resolve());
    req.end(() =>
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 5),
    );
  });
  // Long enough for the render and any append it might have made.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const history = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.order_id}/history/`);
  t.same(
    history.body.map((event: { type: string }) => event.type),
    ['OrderSubmitted', 'OrderPlanned'],
  );
});

t.test('an order of only loose boxes still has packing instructions', async (t) => {
  await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({
      reference: 'DL-BOXES',
      order_items: undefined,
      loose_boxes: [{ name: 'Carton', length: 60, width: 40, height: 40, weight: 12, count: 10 }],
    }),
  });
  await eventually(
    async () =>
      (await service.request('GET', '/api/v1/orders/pallet-contents/?order=DL-BOXES')).body.order?.[0]?.includes(
        'no service-built pallets',
      ) ?? false,
  );
  const pdf = await download('DL-BOXES');
  t.equal(pdf.status, 200);
  t.match((await readPdfText(pdf.body)).text, /Carton/);
});

t.test("unknown orders and other groups' orders answer 400 under order, and record nothing", async (t) => {
  for (const [order, key] of [
    ['NOPE', ACME_KEY],
    ['DL-1', OTHER_KEY],
  ] as const) {
    const response = await download(order, key);
    t.equal(response.status, 400);
    t.match(JSON.parse(response.body.toString()), { order: [/No order matches/] });
  }
  const created = await service.request('GET', '/api/v1/orders/detailed-orders/?search=DL-1');
  const history = await service.request('GET', `/api/v1/orders/detailed-orders/${created.body.results[0].id}/history/`);
  t.equal(history.body.filter((event: { type: string }) => event.type === 'PackingInstructionsDownloaded').length, 1);
});
