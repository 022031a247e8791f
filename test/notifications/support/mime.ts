// Just enough MIME reading to check what nodemailer produced (mailparser is not a dependency):
// top-level headers, and the parts of a multipart body with their decoded content.

export interface MimePart {
  headers: Map<string, string>;
  body: string;
}

export interface ParsedMail extends MimePart {
  parts: MimePart[];
}

export function parseMail(raw: string): ParsedMail {
  const top = splitPart(raw);
  const boundary = /boundary="?([^";]+)"?/i.exec(top.headers.get('content-type') ?? '')?.[1];
  const parts = boundary
    ? top.body
        .split(`--${boundary}`)
        .slice(1)
        .filter((chunk) => !chunk.startsWith('--'))
        .map((chunk) => splitPart(chunk.replace(/^\r?\n/, '')))
    : [];
  return { ...top, parts };
}

/** The part with a Content-Disposition filename, its content decoded. */
export function attachment(mail: ParsedMail): { filename: string; contentType: string; content: Buffer } | undefined {
  for (const part of mail.parts) {
    const disposition = part.headers.get('content-disposition') ?? '';
    const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
    if (!/^attachment/i.test(disposition) || !filename) continue;
    const encoding = (part.headers.get('content-transfer-encoding') ?? '').toLowerCase();
    const content = encoding === 'base64' ? Buffer.from(part.body.replace(/\s+/g, ''), 'base64') : Buffer.from(part.body, 'latin1');
    return { filename, contentType: part.headers.get('content-type') ?? '', content };
  }
  return undefined;
}

/** Addresses of an address header, e.g. `a@x, "B" <b@y>` -> [a@x, b@y]. */
export function addresses(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((entry) => (/<([^>]+)>/.exec(entry)?.[1] ?? entry).trim())
    .filter(Boolean);
}

function splitPart(text: string): MimePart {
  const match = /\r?\n\r?\n/.exec(text);
  const head = match ? text.slice(0, match.index) : text;
  const body = match ? text.slice(match.index + match[0].length) : '';
  const headers = new Map<string, string>();
  // Unfold continuation lines, then one header a line.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}
