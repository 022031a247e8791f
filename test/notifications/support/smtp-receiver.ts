// A real SMTP server (smtp-server) on 127.0.0.1: no TLS, no auth, keeps every message it accepts.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
}

export interface SmtpReceiver {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** `mailFrom` may refuse a transaction: return an SMTP code (451 transient, 550 permanent) or undefined to accept. */
export async function startSmtpReceiver(options: { mailFrom?: (n: number) => number | undefined } = {}): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  let transactions = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      const code = options.mailFrom?.(++transactions);
      if (code === undefined) return callback();
      callback(Object.assign(new Error(code >= 500 ? 'mailbox unavailable' : 'try again later'), { responseCode: code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = session.envelope;
        received.push({
          mailFrom: envelope.mailFrom ? envelope.mailFrom.address : '',
          rcptTo: envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('latin1'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
