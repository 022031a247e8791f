// The webhook as the OpenAPI document describes it (OpenAPI 3.1 `webhooks`): the request the service
// POSTs to each endpoint of the order's company group, its Standard Webhooks headers and the envelope
// schema, the same one the AsyncAPI document gives Kafka consumers.
import { json, ref, type ApiDescription } from '../api-docs/openapi-parts.js';
import {
  CancelledEnvelopeSchema,
  EnvelopeIdSchema,
  ORDER_CANCELLED,
  PACKING_INSTRUCTIONS_READY,
  ReadyEnvelopeSchema,
} from './ready-envelope.js';

const header = (name: string, description: string, schema: object) => ({ name, in: 'header', required: true, description, schema });
const SIGNED_AND_RETRIED =
  'Signed the Standard Webhooks way: HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>" keyed with the base64 after whsec_ of the endpoint secret. ' +
  'Retried after 30 s, 2 min and 10 min on 5xx, 408, 429, timeouts (10 s) and connection errors. At least once: de-duplicate on webhook-id, ' +
  'which is the envelope id and is the same, with the same body, on every attempt. The same message goes to Kafka (GET /api/v1/asyncapi.json). ' +
  "An order's deliveries are queued in the order its events were recorded (its readies, then its cancel), but each is sent (several at a time) and retried on its own, so " +
  'a receiver may get them out of order: order them by timestamp; an order.cancelled voids every packing_instructions.ready of the order, whenever it arrives.';
const signatureHeaders = [
  header('webhook-id', 'The envelope id (body id).', EnvelopeIdSchema),
  header('webhook-timestamp', "The attempt's time, unix seconds: each attempt is signed anew.", {
    type: 'string',
    pattern: '^[0-9]+$',
  }),
  header('webhook-signature', 'v1,<base64 HMAC-SHA256>.', { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+=*$' }),
];
const answers = {
  '2XX': { description: 'Received: never sent again.' },
  default: { description: 'Any other answer: 5xx, 408 and 429 are retried, anything else gives the delivery up.' },
};

export const webhookApi: ApiDescription = {
  paths: {},
  schemas: { ReadyEnvelope: ReadyEnvelopeSchema, CancelledEnvelope: CancelledEnvelopeSchema },
  webhooks: {
    [PACKING_INSTRUCTIONS_READY]: {
      post: {
        operationId: 'packingInstructionsReadyWebhook',
        summary: 'Packing instructions are ready',
        description:
          "POSTed to every webhook URL of the order's company group (master data) once the order is planned, and again, with a new id, each time it is planned again after an amend. " +
          SIGNED_AND_RETRIED,
        security: [],
        parameters: signatureHeaders,
        requestBody: { required: true, ...json(ref('ReadyEnvelope')) },
        responses: answers,
      },
    },
    [ORDER_CANCELLED]: {
      post: {
        operationId: 'orderCancelledWebhook',
        summary: 'An order was cancelled',
        description:
          "POSTed to every webhook URL of the order's company group once the order is cancelled: its packing instructions sent before are void. " +
          SIGNED_AND_RETRIED,
        security: [],
        parameters: signatureHeaders,
        requestBody: { required: true, ...json(ref('CancelledEnvelope')) },
        responses: answers,
      },
    },
  },
};
