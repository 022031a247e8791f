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
