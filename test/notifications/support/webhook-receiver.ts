// A webhook endpoint on 127.0.0.1 that checks every request's Standard Webhooks signature on its own
// (node:crypto, not the code under test) and answers as the test tells it to.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  contentType: string;
  body: string;
  verified: boolean;
  receivedAt: number;
  /** What the receiver answered: a status, or 'hang' / 'drop' when it did not answer. */
  answer: number | 'hang' | 'drop';
}

/** A status to answer, 'hang' (never answer), or 'drop' (close the connection without answering). */
export type Answer = number | 'hang' | 'drop';

export interface WebhookReceiver {
  url(path?: string): string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

export function verifySignature(secret: string, id: string, timestamp: string, body: string, header: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'));
  return header.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',', 2);
    const given = Buffer.from(value ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export async function startWebhookReceiver(
  /** The key to verify with; a function to let a test rotate it. */
  secret: string | (() => string),
  answer: (request: Omit<ReceivedWebhook, 'answer'>, response: ServerResponse) => Answer | Promise<Answer>,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const header = (name: string) => String(request.headers[name] ?? '');
      const body = Buffer.concat(chunks).toString('utf8');
      const seen = {
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature'),
        contentType: header('content-type'),
        body,
        verified: verifySignature(
          typeof secret === 'string' ? secret : secret(),
          header('webhook-id'),
          header('webhook-timestamp'),
          body,
          header('webhook-signature'),
        ),
        receivedAt: Date.now(),
      };
      const decided = seen.verified ? await answer(seen, response) : 401;
      received.push({ ...seen, answer: decided });
      if (decided === 'hang') hanging.add(response);
      else if (decided === 'drop') request.socket.destroy();
      else if (!response.headersSent) response.writeHead(decided).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
