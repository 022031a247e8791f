// What each feature's OpenAPI path items are made of. A feature writes its paths, parameters and
// defaults once, beside its routes, and lists the schemas its path items refer to by name;
// src/openapi.ts joins them into one document.

/** A feature's part of the document: its path items and the component schemas they refer to. */
export interface ApiDescription {
  paths: Record<string, object>;
  schemas: Record<string, object>;
  /** Requests the service makes to its clients (OpenAPI 3.1 `webhooks`), by event name. */
  webhooks?: Record<string, object>;
}

/** The router's `/orders/:id/` as OpenAPI writes it, `/orders/{id}/`. */
export const openApiPath = (routerPath: string): string => routerPath.replace(/:(\w+)/g, '{$1}');

export const ref = (schemaName: string) => ({ $ref: `#/components/schemas/${schemaName}` });
export const json = (schema: object) => ({ content: { 'application/json': { schema } } });
export const respond = (description: string, schemaName: string) => ({ description, ...json(ref(schemaName)) });

/**
 * A 400 whose reasons JSON Schema cannot express (master data, the order's state, the clock): the
 * description names each, and one example per reason shows its body.
 */
export const refusals = (description: string, schemaName: string, examples: Record<string, { summary: string; value: object }>) => ({
  description,
  content: { 'application/json': { schema: ref(schemaName), examples } },
});

export const unauthorized = respond('Missing or invalid API key (Authorization: Api-Key <key>).', 'ErrorDetail');
export const bodyTooLarge = respond('The request body is larger than 1 MiB.', 'ErrorDetail');

/**
 * The tags of the document. Each operation has exactly one, and generators make one API class of each
 * (OrdersApi, AuditApi, ...); an operation without one would land in a DefaultApi, which the generators
 * also write for other purposes and so overwrite. A new operation takes the tag of the feature it adds to.
 */
export const TAGS = {
  orders: 'orders',
  audit: 'audit',
  masterData: 'master-data',
  documents: 'documents',
  operations: 'operations',
  viewer: 'viewer',
} as const;

// Keys whose values are data, not schemas: a "title" in them is an example's field.
const DATA_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum']);

/**
 * The document with every nested object schema that has a title written once, under components.schemas
 * by that title, and referred to by $ref wherever it appears. Generators then make one model per name
 * (OrderItemInput, not SubmitOrderRequestOrderItemsInner, nor two models of one name that overwrite each
 * other). Two different schemas under one title are a mistake in the code: the build throws.
 */
export function nameTitledSchemas<T extends { components: { schemas: Record<string, object> } }>(document: T): T {
  const named = new Map<string, string>();
  const toRef = (node: unknown, root: boolean): unknown => {
    if (Array.isArray(node)) return node.map((element) => toRef(element, false));
    if (node === null || typeof node !== 'object') return node;
    const copy = Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, DATA_KEYS.has(key) ? value : toRef(value, false)]),
    ) as Record<string, unknown>;
    const { title, type } = copy;
    if (root || typeof title !== 'string' || type !== 'object') return copy;
    const json = JSON.stringify(copy);
    if ((named.get(title) ?? json) !== json) throw new Error(`two different schemas have the title ${title}`);
    named.set(title, json);
    return { $ref: `#/components/schemas/${title}` };
  };
  const {
    components: { schemas, ...components },
    ...rest
  } = document;
  const result = {
    ...(toRef(rest, false) as object),
    components: {
      ...(toRef(components, false) as object),
      // A component's own title is its name (or, for ReadyEnvelope, the event's): not a reference to itself.
      schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toRef(schema, true)])),
    },
  } as T;
  for (const [title, json] of named) {
    const existing = result.components.schemas[title];
    if (existing !== undefined && JSON.stringify(existing) !== json) throw new Error(`the title ${title} names another component`);
    result.components.schemas[title] = JSON.parse(json) as object;
  }
  return result;
}
