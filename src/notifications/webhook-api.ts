// The webhook as the OpenAPI document describes it (OpenAPI 3.1 `webhooks`): the request the service
// POSTs to each endpoint of the order's company group, its Standard Webhooks headers and the envelope
// schema, the same one the AsyncAPI document gives Kafka consumers.
import { json, ref, type ApiDescription } from '../api-docs/openapi-parts.js';
import { EnvelopeIdSchema, PACKING_INSTRUCTIONS_READY, ReadyEnvelopeSchema } from './ready-envelope.js';

const header = (name: string, description: string, schema: object) => ({ name, in: 'header', required: true, description, schema });

export const webhookApi: ApiDescription = {
  paths: {},
  schemas: { ReadyEnvelope: ReadyEnvelopeSchema },
  webhooks: {
    [PACKING_INSTRUCTIONS_READY]: {
      post: {
        operationId: 'packingInstructionsReadyWebhook',
        summary: 'Packing instructions are ready',
        description:
          "POSTed to every webhook URL of the order's company group (master data) once the order is planned. Signed the Standard Webhooks way: " +
          'HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>" keyed with the base64 after whsec_ of the endpoint secret. ' +
          'Retried after 30 s, 2 min and 10 min on 5xx, 408, 429, timeouts (10 s) and connection errors. At least once: de-duplicate on webhook-id, ' +
          'which is the envelope id and is the same, with the same body, on every attempt. The same message goes to Kafka (GET /api/v1/asyncapi.json).',
        security: [],
        parameters: [
          header('webhook-id', 'The envelope id (body id).', EnvelopeIdSchema),
          header('webhook-timestamp', "The attempt's time, unix seconds: each attempt is signed anew.", {
            type: 'string',
            pattern: '^[0-9]+$',
          }),
          header('webhook-signature', 'v1,<base64 HMAC-SHA256>.', { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+=*$' }),
        ],
        requestBody: { required: true, ...json(ref('ReadyEnvelope')) },
        responses: {
          '2XX': { description: 'Received: never sent again.' },
          default: { description: 'Any other answer: 5xx, 408 and 429 are retried, anything else gives the delivery up.' },
        },
      },
    },
  },
};
