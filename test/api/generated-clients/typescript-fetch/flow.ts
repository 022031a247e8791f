// The order flow through the client openapi-generator's `typescript-fetch` generator makes of the served
// document. test/api/generated-clients.test.ts generates the client into ./client beside a copy of this
// file, compiles both with tsc (strict) and runs the result with ORDERS_URL, ORDERS_KEY and ORDERS_RUN (a
// suffix for this run's references). Only the generated typed API is used: its models to build requests and
// read answers, its ResponseError and model parsers for the errors. Each step prints "ok - <step>"; the
// first that fails throws, and the exit status is not 0.
import {
  Configuration,
  ErrorDetailFromJSON,
  ListOrdersPaginateEnum,
  OrderLookupErrorFromJSON,
  OrdersApi,
  OrderStatusEnum,
  ResponseError,
  SubmitOrderRequestTransportationModeEnum,
  type OrderList,
  type Order,
} from './client/index';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const URL = env('ORDERS_URL');
const RUN = env('ORDERS_RUN');

const step = (name: string): void => console.log(`ok - ${name}`);
function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(what);
}
const ordersApi = (key: string) => new OrdersApi(new Configuration({ basePath: URL, apiKey: `Api-Key ${key}` }));

/** The error the client threw for a status, with the body it carried. */
async function refusal(call: () => Promise<unknown>, status: number): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    check(error instanceof ResponseError, `a ResponseError, not ${String(error)}`);
    check(error.response.status === status, `${status}, not ${error.response.status}`);
    return error.response.json();
  }
  throw new Error(`no ${status}`);
}

async function main(): Promise<void> {
  const api = ordersApi(env('ORDERS_KEY'));
  const party = { supplierName: 'Acme Supplier Ltd', consigneeName: 'Globex Consignee GmbH', sendEmail: false };

  const skus = await api.submitOrder({
    submitOrderRequest: {
      ...party,
      reference: `PO-${RUN}-1`,
      transportationMode: SubmitOrderRequestTransportationModeEnum.OceanFcl,
      orderItems: [{ item: 'SKU-1001', quantity: '24', purchaseOrder: 'PO-7', lineItemNumber: '1' }],
      orderContainers: [{ code: '40ft' }],
    },
  });
  check(skus.orderId >= 1 && skus.serviceRef.startsWith('SO-'), `created: ${JSON.stringify(skus)}`);
  step('submit with order_items');

  const cargo = await api.submitOrder({
    submitOrderRequest: {
      ...party,
      reference: `PO-${RUN}-2`,
      transportationMode: SubmitOrderRequestTransportationModeEnum.TruckFtl,
      preBuilts: [{ name: 'P1', length: '120', width: '80', height: '150', weight: '400', count: 2 }],
      looseBoxes: [{ name: 'B1', length: 40, width: 30, height: '20.5', weight: 5, count: 6 }],
      orderContainers: [{ code: '20ft', count: 1 }],
    },
  });
  check(cargo.orderId !== skus.orderId, 'two orders');
  step('submit with pre_builts and loose_boxes');

  let order: Order | undefined;
  for (const created of [skus, cargo]) {
    const deadline = Date.now() + 120_000;
    do {
      order = await api.retrieveOrder({ id: created.orderId });
      if (order.status !== OrderStatusEnum.Submitted) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } while (Date.now() < deadline);
    check(order.status === OrderStatusEnum.Planned, `${created.serviceRef} is ${order.status}`);
  }
  check(order?.reference === `PO-${RUN}-2` && order.looseBoxes[0]?.name === 'B1', `retrieved: ${JSON.stringify(order)}`);
  step('retrieve until planned');

  const envelope = (await api.listOrders({ search: skus.serviceRef, pageSize: 5 })) as OrderList;
  check(!Array.isArray(envelope) && envelope.count === 1, `envelope: ${JSON.stringify(envelope)}`);
  check(envelope.results[0]?.serviceRef === skus.serviceRef && envelope.results[0].orderItems[0]?.item === 'SKU-1001', 'the order listed');
  step('list with the envelope');

  const bare = await api.listOrders({ search: cargo.serviceRef, paginate: ListOrdersPaginateEnum.False });
  check(Array.isArray(bare) && bare.map((listed) => listed.serviceRef).join() === cargo.serviceRef, `bare list: ${JSON.stringify(bare)}`);
  step('list with paginate=false');

  const pallets = await api.palletContents({ order: skus.serviceRef });
  check(pallets.length >= 1 && pallets[0]?.palletIndex === 'AP1', `pallets: ${JSON.stringify(pallets)}`);
  const units = pallets.flatMap((pallet) => pallet.contents).reduce((sum, content) => sum + content.quantity, 0);
  check(units === 24, `24 units on the pallets, not ${units}`);
  step('pallet contents');

  const plan = await api.loadPlan({ order: cargo.serviceRef });
  check(plan.serviceRef === cargo.serviceRef && plan.containers.length === 1, `plan: ${JSON.stringify(plan.containers.length)}`);
  check((plan.containers[0]?.placements.length ?? 0) >= 2, 'placements');
  const skuPlan = await api.loadPlan({ order: skus.serviceRef });
  check(skuPlan.containers.length === 1, `one 40ft for 24 cartons, not ${skuPlan.containers.length}: a count left out is not 5`);
  step('load plan');

  const pdf = await api.downloadPackingInstructions({ order: `PO-${RUN}-1` });
  const head = Buffer.from(await pdf.arrayBuffer())
    .subarray(0, 4)
    .toString('latin1');
  check(head === '%PDF', `PDF: ${head}`);
  check((await api.retrieveOrder({ id: skus.orderId })).packingInstructionsDownloaded === true, 'marked downloaded');
  step('download the packing instructions (%PDF)');

  const history = await api.orderHistory({ id: skus.orderId });
  check(history[0]?.type === 'OrderSubmitted' && history.some((event) => event.type === 'OrderPlanned'), 'history');
  step('history');

  const unauthorized = ErrorDetailFromJSON(await refusal(() => ordersApi('not-a-key').listOrders(), 401));
  check(unauthorized.detail.length > 0, '401 detail');
  step('401 with detail');

  const notFound = ErrorDetailFromJSON(await refusal(() => api.retrieveOrder({ id: 999_999_999 }), 404));
  check(notFound.detail.length > 0, '404 detail');
  step('404 on retrieve');

  const unknown = OrderLookupErrorFromJSON(await refusal(() => api.palletContents({ order: `NO-SUCH-${RUN}` }), 400));
  check(unknown.order.length === 1, `400: ${JSON.stringify(unknown)}`);
  step('400 under order for an unknown order');

  // ValidationError is a map of fields (additionalProperties): the client types it { [key: string]: any }.
  const invalid = (await refusal(
    () =>
      api.submitOrder({
        submitOrderRequest: {
          ...party,
          reference: `PO-${RUN}-3`,
          transportationMode: SubmitOrderRequestTransportationModeEnum.OceanFcl,
          orderItems: [
            { item: 'SKU-1001', quantity: 1 },
            { item: 'NO-SUCH-SKU', quantity: 1 },
          ],
          orderContainers: [{ code: '40ft' }],
        },
      }),
    400,
  )) as { [field: string]: any };
  check(
    JSON.stringify(invalid.order_items?.[0]) === '{}' && /NO-SUCH-SKU/.test(invalid.order_items?.[1]?.item?.[0]),
    JSON.stringify(invalid),
  );
  step('400 with field errors on an invalid submit');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
