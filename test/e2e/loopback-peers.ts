// The outside world of the pipeline, on loopback: an SMTP server that keeps every message, and a
// webhook receiver that checks Standard Webhooks signatures and can be told how to answer.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  recipients: string[];
  raw: string;
}

export async function startSmtpServer(): Promise<{ url: string; mails: ReceivedMail[]; stop(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ recipients: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface WebhookRequest {
  id: string;
  timestamp: string;
  body: string;
  signatureValid: boolean;
  status: number;
}

export interface WebhookReceiver {
  url: string;
  requests: WebhookRequest[];
  /** Decides the status of each request; default 200. */
  answer: (request: Omit<WebhookRequest, 'status'>, seen: WebhookRequest[]) => number;
  /** Called after the answer is written. */
  afterAnswer?: (request: WebhookRequest) => void;
  stop(): Promise<void>;
}

export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const receiver: WebhookReceiver = {
    url: '',
    requests: [],
    answer: () => 200,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      const timestamp = String(req.headers['webhook-timestamp']);
      const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
      const signatureValid = String(req.headers['webhook-signature'] ?? '')
        .split(' ')
        .some((part) => {
          const [version, signature] = part.split(',');
          const given = Buffer.from(signature ?? '', 'base64');
          return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
        });
      const partial = { id, timestamp, body, signatureValid };
      const status = receiver.answer(partial, receiver.requests);
      const request = { ...partial, status };
      receiver.requests.push(request);
      res.writeHead(status).end();
      receiver.afterAnswer?.(request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/orders`;
  return receiver;
}

/** A header's value from a raw message, unfolded. */
export function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1];
}
