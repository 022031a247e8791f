// Regular expressions used in schemas, each with the message a client sees when a value does not
// match. They live together so that the ajv error translation can name a failed pattern in plain
// English instead of echoing the expression.

export interface NamedPattern {
  pattern: string;
  message: string;
}

/** At least one character that is not white space. */
export const NOT_BLANK: NamedPattern = { pattern: '\\S', message: 'This field may not be blank.' };

/** Purchase orders and line item numbers end up in comma-separated, URL-encoded exports downstream. */
export const NO_AMPERSAND_OR_COMMA: NamedPattern = { pattern: '^[^&,]*$', message: 'Must not contain "&" or ",".' };

/** Sent as `Authorization: Api-Key <key>`: printable ASCII without spaces, or the header cannot carry it. */
export const API_KEY_CHARACTERS: NamedPattern = {
  pattern: '^[\\x21-\\x7E]+$',
  message: 'An API key may contain only printable ASCII characters and no spaces.',
};

export const HTTP_URL_MESSAGE = 'Enter an absolute http:// or https:// URL, such as https://erp.example.com/hooks/orders.';

/**
 * Webhook endpoints are called over HTTP; other schemes (ftp:, mailto:) cannot receive a POST.
 * Used beside `format: uri`, whose message is the same, so a bad URL gets one message, not two.
 */
export const HTTP_URL: NamedPattern = { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+', message: HTTP_URL_MESSAGE };

/** `whsec_` + standard, padded base64 of at least 16 bytes (24 base64 characters). */
export const WEBHOOK_SECRET: NamedPattern = {
  pattern: '^whsec_(?:[A-Za-z0-9+/]{4}){5,}(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$',
  message: 'Enter a secret of the form "whsec_" followed by standard base64 (with "=" padding) of at least 16 bytes.',
};

const ALL: readonly NamedPattern[] = [NOT_BLANK, NO_AMPERSAND_OR_COMMA, API_KEY_CHARACTERS, HTTP_URL, WEBHOOK_SECRET];
const MESSAGES = new Map(ALL.map(({ pattern, message }) => [pattern, message]));

export function patternMessage(pattern: string): string | undefined {
  return MESSAGES.get(pattern);
}
