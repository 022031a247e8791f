// src/openapi.ts: a structurally valid OpenAPI 3.1 document, built from the very schemas the
// service validates with, naming every operation and status of the service.
import t from 'tap';
import { nameTitledSchemas } from '../../src/api-docs/openapi-parts.js';
import { buildOpenApiDocument } from '../../src/openapi.js';
import { MasterDataDocumentSchema } from '../../src/master-data/master-data-schema.js';
import { SubmitOrderRequest } from '../../src/orders/submit-order-schema.js';
import { validateSubmitOrder } from '../../src/orders/validate-submit-order.js';
import { ajv } from '../../src/validation/ajv.js';

// `any`: the document is walked as plain JSON.
type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, operation]) => ({ path, method, operation: operation as Json })),
);

function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** A schema of the document with every $ref to a component schema replaced by that schema, as ajv compiles it alone. */
function inlined(node: unknown): any {
  if (Array.isArray(node)) return node.map(inlined);
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) return inlined(resolvePointer(doc, ref));
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inlined(value)]));
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((element) => refsIn(element, found));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

t.test('it is OpenAPI 3.1 with the required top-level fields', async (t) => {
  t.match(doc.openapi, /^3\.1\.\d+$/);
  t.type(doc.info?.title, 'string');
  t.type(doc.info?.version, 'string');
  t.type(doc.paths, 'object');
  t.strictSame(JSON.parse(JSON.stringify(doc)), doc, 'plain JSON: nothing is lost when it is served');
});

t.test('every $ref resolves inside the document', async (t) => {
  const refs = refsIn(doc);
  t.ok(refs.length > 10, `${refs.length} references`);
  for (const ref of refs) t.ok(resolvePointer(doc, ref) !== undefined, ref);
});

t.test('every operation has responses, each with a description and a valid status', async (t) => {
  for (const { path, method, operation } of operations) {
    const responses = Object.entries((operation.responses ?? {}) as Json);
    t.ok(responses.length > 0, `${method} ${path} has responses`);
    for (const [status, response] of responses) {
      t.match(status, /^(?:[1-5](?:\d\d|XX)|default)$/, `${method} ${path} ${status}`);
      t.type(response.description, 'string', `${method} ${path} ${status} has a description`);
    }
  }
});

t.test('operation ids are unique', async (t) => {
  const ids = operations.map(({ operation }) => operation.operationId);
  t.equal(new Set(ids).size, ids.length);
  t.ok(ids.every((id) => typeof id === 'string'));
});

t.test('templated path segments are declared, required path parameters, and parameters are well formed', async (t) => {
  for (const { path, method, operation } of operations) {
    const parameters = (operation.parameters ?? []) as Json[];
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    const inPath = parameters.filter((parameter) => parameter.in === 'path');
    t.strictSame(inPath.map((parameter) => parameter.name).sort(), templated.sort(), `${method} ${path}`);
    for (const parameter of parameters) {
      t.ok(['query', 'header', 'path', 'cookie'].includes(parameter.in), `${parameter.name} in ${parameter.in}`);
      t.type(parameter.schema, 'object', `${parameter.name} has a schema`);
      if (parameter.in === 'path') t.equal(parameter.required, true, `${parameter.name} is required`);
    }
  }
});

t.test('every operation of the service is there with its statuses', async (t) => {
  const expected: Record<string, string[]> = {
    'post /api/v1/orders/submit-order/': ['201', '400', '401', '413'],
    'get /api/v1/orders/detailed-orders/{id}/': ['200', '401', '403', '404'],
    'get /api/v1/orders/detailed-orders/{id}/history/': ['200', '401', '403', '404'],
    'put /api/v1/orders/detailed-orders/{id}/': ['200', '400', '401', '403', '404', '412', '428'],
    'post /api/v1/orders/detailed-orders/{id}/cancel/': ['200', '400', '401', '403', '404', '412'],
    'get /api/v1/orders/detailed-orders/': ['200', '401'],
    'get /api/v1/orders/pallet-contents/': ['200', '400', '401'],
    'get /api/v1/orders/download-packing-instructions/': ['200', '400', '401'],
    'get /api/v1/orders/load-plan/': ['200', '400', '401'],
    'get /plans/{service_ref}': ['200', '403', '404'],
    'put /api/v1/admin/master-data/': ['200', '400', '401'],
    'get /api/v1/openapi.json': ['200'],
    'get /api/v1/asyncapi.json': ['200'],
    'get /healthz': ['200'],
    'get /readyz': ['200', '503'],
    'get /metrics': ['200'],
  };
  for (const [key, statuses] of Object.entries(expected)) {
    const found = operations.find(({ path, method }) => `${method} ${path}` === key);
    if (!found) {
      t.fail(`${key} is missing`);
      continue;
    }
    for (const status of statuses) t.ok(status in found.operation.responses, `${key} ${status}`);
  }
});

t.test('list query parameters: page, page_size (capped at 100, not refused), paginate, search, status', async (t) => {
  const list = operations.find(({ path, method }) => method === 'get' && path === '/api/v1/orders/detailed-orders/')!;
  const byName = Object.fromEntries((list.operation.parameters as Json[]).map((parameter) => [parameter.name, parameter]));
  t.strictSame(Object.keys(byName).sort(), ['page', 'page_size', 'paginate', 'search', 'status']);
  t.match(byName.status.description, /Left out: every status, cancelled orders included/, 'the default is documented');
  t.equal(byName.page_size.schema.maximum, undefined, 'no maximum: a larger page_size is accepted and capped');
  t.match(byName.page_size.description, /capped to 100/);
  t.equal(byName.page_size.schema.default, 10);
  t.equal(byName.page.schema.default, 1);
  t.strictSame(
    refsIn(list.operation.responses['200']).sort(),
    ['#/components/schemas/Order', '#/components/schemas/OrderList'],
    'envelope or array',
  );
});

t.test('order lookups take ?order= and the download answers application/pdf', async (t) => {
  for (const path of ['/api/v1/orders/pallet-contents/', '/api/v1/orders/download-packing-instructions/', '/api/v1/orders/load-plan/']) {
    const { operation } = operations.find((candidate) => candidate.path === path)!;
    t.match(operation.parameters, [{ name: 'order', in: 'query', required: true }]);
  }
  const download = operations.find(({ path }) => path === '/api/v1/orders/download-packing-instructions/')!;
  t.ok('application/pdf' in download.operation.responses['200'].content);
});

t.test('authentication: an apiKey scheme in the Authorization header, required except for this document and operations', async (t) => {
  t.strictSame(doc.components.securitySchemes.ApiKey, {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'Api-Key <key>',
  });
  t.strictSame(doc.security, [{ ApiKey: [] }]);
  for (const { path, operation } of operations) {
    // The audit public key too: whoever is handed a digest or an export must be able to check it (docs/auditing.md).
    if (
      !path.startsWith('/api/v1/') ||
      path === '/api/v1/openapi.json' ||
      path === '/api/v1/asyncapi.json' ||
      path === '/api/v1/audit/public-key'
    )
      t.strictSame(operation.security, [], `${path} is public`);
    else t.equal(operation.security, undefined, `${path} uses the global requirement`);
  }
});

t.test('the load plan example is valid against its schema', async (t) => {
  const schema = doc.components.schemas.LoadPlan;
  const validate = ajv.compile(inlined(schema));
  t.ok(schema.examples.length > 0);
  for (const example of schema.examples) t.ok(validate(example), JSON.stringify(validate.errors));
});

t.test('every component schema compiles as JSON Schema 2020-12 in strict mode', async (t) => {
  for (const [name, schema] of Object.entries(doc.components.schemas as Json)) {
    t.doesNotThrow(() => ajv.compile(inlined(schema)), name);
  }
});

t.test('the request bodies are the schemas the service validates with, their named parts as references', async (t) => {
  t.strictSame(inlined(doc.components.schemas.SubmitOrderRequest), JSON.parse(JSON.stringify(SubmitOrderRequest)));
  t.strictSame(inlined(doc.components.schemas.MasterDataDocument), JSON.parse(JSON.stringify(MasterDataDocumentSchema)));
  t.strictSame(doc.components.schemas.SubmitOrderRequest.properties.order_items.items, { $ref: '#/components/schemas/OrderItemInput' });
  t.strictSame(
    doc.components.schemas.SubmitOrderRequest.patternProperties['^shipment_skus$'].items,
    { $ref: '#/components/schemas/OrderItemInput' },
    'a field and its alias: one model',
  );
  t.notOk('shipment_skus' in doc.components.schemas.SubmitOrderRequest.properties, 'an alias is accepted, not offered as a field');
  const submit = operations.find(({ path }) => path === '/api/v1/orders/submit-order/')!;
  t.strictSame(submit.operation.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/SubmitOrderRequest' });
});

t.test('the published request schema agrees with the validator on shape', async (t) => {
  const published = ajv.compile(inlined(doc.components.schemas.SubmitOrderRequest));
  const good = {
    supplier_name: 'S',
    consignee_name: 'C',
    reference: 'R',
    transportation_mode: 'TruckFTL',
    boxes: [{ name: 'B', length: 1, width: '1.5', height: 1, weight: 2, count: 1 }],
    order_containers: [{ code: '20ft' }],
  };
  t.ok(validateSubmitOrder(good).ok);
  t.ok(published(good), JSON.stringify(published.errors));
  for (const bad of [
    { ...good, colour: 'red' },
    { ...good, reference: 'R'.repeat(65) },
    { ...good, order_containers: { code: '20ft' } },
    { ...good, boxes: [{ ...good.boxes[0], rotation_x: true }] },
    { ...good, boxes: [{ ...good.boxes[0], weight: '1.1234567' }] },
  ]) {
    t.notOk(validateSubmitOrder(bad).ok);
    t.notOk(published(bad), JSON.stringify(bad));
  }
});

t.test('what client generators need: a tag on every operation, servers, a licence, no boolean constants', async (t) => {
  const declared = (doc.tags as Json[]).map((tag) => tag.name);
  t.ok(
    (doc.tags as Json[]).every((tag) => typeof tag.description === 'string'),
    'each tag is described',
  );
  for (const { path, method, operation } of operations) {
    // An operation without a tag goes into a DefaultApi, which generators also write for other purposes.
    t.equal(operation.tags?.length, 1, `${method} ${path} has one tag`);
    t.ok(declared.includes(operation.tags?.[0]), `${method} ${path}: ${operation.tags?.[0]} is declared`);
  }
  t.ok(
    ['submitOrder', 'listOrders', 'retrieveOrder', 'orderHistory', 'palletContents', 'loadPlan', 'downloadPackingInstructions'].every(
      (id) => operations.find(({ operation }) => operation.operationId === id)?.operation.tags[0] === 'orders',
    ),
    'the order flow in one API class',
  );
  t.match(doc.servers, [{ url: '{base_url}', variables: { base_url: { default: /^http:\/\// } } }]);
  t.type(doc.info.license.name, 'string');
  // openapi-generator's Java client makes an enum of a String from a boolean const or enum, which does not compile.
  const booleanConstants: string[] = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) node.forEach((element, index) => walk(element, `${at}/${index}`));
    else if (node !== null && typeof node === 'object') {
      const schema = node as Json;
      if (typeof schema.const === 'boolean' || (Array.isArray(schema.enum) && schema.enum.some((v: unknown) => typeof v === 'boolean')))
        booleanConstants.push(at);
      for (const [key, value] of Object.entries(schema)) if (key !== 'examples' && key !== 'example') walk(value, `${at}/${key}`);
    }
  };
  walk(doc, '#');
  t.strictSame(booleanConstants, []);
});

t.test('the download has a schema for its bytes', async (t) => {
  const download = operations.find(({ path }) => path === '/api/v1/orders/download-packing-instructions/')!;
  t.strictSame(download.operation.responses['200'].content, { 'application/pdf': { schema: { type: 'string', format: 'binary' } } });
});

t.test('the webhooks: described under components.pathItems, webhooks refer to them', async (t) => {
  const events = { 'packing_instructions.ready': 'ReadyEnvelope', 'order.cancelled': 'CancelledEnvelope' };
  t.strictSame(doc.webhooks, Object.fromEntries(Object.keys(events).map((name) => [name, { $ref: `#/components/pathItems/${name}` }])));
  for (const [name, envelope] of Object.entries(events)) {
    const post = doc.components.pathItems[name].post;
    t.strictSame(
      (post.parameters as Json[]).map((parameter) => `${parameter.in} ${parameter.name}`),
      ['header webhook-id', 'header webhook-timestamp', 'header webhook-signature'],
      name,
    );
    t.strictSame(post.requestBody.content['application/json'].schema, { $ref: `#/components/schemas/${envelope}` }, name);
  }
  t.match(doc.info.description, /webhook-signature/, 'the description points to them');
});

t.test('nested schemas with a title are components, referred to by name', async (t) => {
  const schemas = doc.components.schemas as Json;
  for (const name of [
    'OrderItemInput',
    'PreBuiltInput',
    'PreBuiltItemInput',
    'LooseBoxInput',
    'OrderContainerInput',
    'Order',
    'LoadPlanContainer',
  ])
    t.equal(schemas[name]?.title, name, `${name} is a component`);
  t.strictSame(schemas.OrderList.properties.results.items, { $ref: '#/components/schemas/Order' });
  const nestedTitles: string[] = [];
  const walk = (node: unknown, root: boolean, at: string): void => {
    if (Array.isArray(node)) node.forEach((element, index) => walk(element, false, `${at}/${index}`));
    else if (node !== null && typeof node === 'object') {
      const schema = node as Json;
      if (!root && typeof schema.title === 'string' && schema.type === 'object') nestedTitles.push(at);
      for (const [key, value] of Object.entries(schema)) if (key !== 'examples' && key !== 'example') walk(value, false, `${at}/${key}`);
    }
  };
  for (const [name, schema] of Object.entries(schemas)) walk(schema, true, name);
  t.strictSame(nestedTitles, [], 'no titled object left inline');
});

t.test('nameTitledSchemas: one component per title, a clash of titles refused', async (t) => {
  const part = { type: 'object', title: 'Part', properties: { n: { type: 'integer' } } };
  const named = nameTitledSchemas({
    paths: { '/x': { get: { responses: { '200': { content: { 'application/json': { schema: { type: 'array', items: part } } } } } } } },
    components: { schemas: { Whole: { type: 'object', title: 'Whole', properties: { a: part, b: part } }, Part: part } },
  });
  t.strictSame(named.components.schemas, {
    Whole: {
      type: 'object',
      title: 'Whole',
      properties: { a: { $ref: '#/components/schemas/Part' }, b: { $ref: '#/components/schemas/Part' } },
    },
    Part: part,
  });
  t.strictSame((named.paths as Json)['/x'].get.responses['200'].content['application/json'].schema.items, {
    $ref: '#/components/schemas/Part',
  });
  const other = { ...part, properties: { m: { type: 'string' } } };
  t.throws(
    () => nameTitledSchemas({ components: { schemas: { Whole: { type: 'object', properties: { a: part, b: other } } } } }),
    /title Part/,
  );
  t.throws(
    () => nameTitledSchemas({ components: { schemas: { Part: other, Whole: { type: 'object', properties: { a: part } } } } }),
    /Part names another/,
  );
  t.strictSame(
    nameTitledSchemas({ components: { schemas: { Ex: { type: 'object', examples: [{ title: 'x', type: 'object' }] } } } }).components
      .schemas,
    { Ex: { type: 'object', examples: [{ title: 'x', type: 'object' }] } },
    'an example is data, not a schema',
  );
});

t.test('each call builds a fresh document', async (t) => {
  const first = buildOpenApiDocument() as Json;
  first.components.schemas.SubmitOrderRequest.properties = {};
  t.ok(Object.keys((buildOpenApiDocument() as Json).components.schemas.SubmitOrderRequest.properties).length > 10);
});

t.test("submit's and retrieve's answers link to amend and cancel, and every link names an operation of the document", async (t) => {
  const ids = new Set(operations.map(({ operation }) => operation.operationId));
  const submit = operations.find(({ operation }) => operation.operationId === 'submitOrder')!;
  const retrieve = operations.find(({ operation }) => operation.operationId === 'retrieveOrder')!;
  for (const status of ['200', '201'])
    t.ok(
      ['amendOrder', 'cancelOrder'].every((id) => id in submit.operation.responses[status].links),
      `submit ${status}`,
    );
  t.same(
    retrieve.operation.responses['200'].links.amendOrder.parameters['header.If-Match'],
    '$response.header.ETag',
    'an amend from a read order names its ETag',
  );
  for (const { operation } of operations)
    for (const response of Object.values(operation.responses as Record<string, Json>))
      for (const link of Object.values((response.links ?? {}) as Record<string, Json>))
        t.ok(ids.has(link.operationId), `${operation.operationId} links to ${link.operationId}`);
});
