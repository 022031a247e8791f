// If-Match as amend and cancel read it (RFC 9110 13.1.1): the order's ETag is its revision in quotes
// ("3"), compared strongly. One tag or `*`; anything longer than any ETag this service gives is refused
// before it is looked at.
export type IfMatch =
  | { kind: 'missing' }
  | { kind: 'any' }
  | { kind: 'revision'; revision: number }
  /** A well-formed tag that no revision of an order can match (weak, or not a revision number): 412 at once. */
  | { kind: 'never'; message: string }
  | { kind: 'malformed'; message: string };

/** Longer than any tag this service gives or a list of a few: past it the header is refused unread. */
export const MAX_IF_MATCH_LENGTH = 64;

const AS_RETRIEVE_GIVES_IT = 'Send the ETag as retrieve gives it, in double quotes (If-Match: "3"), or *.';

export function parseIfMatch(header: string | string[] | undefined): IfMatch {
  if (header === undefined) return { kind: 'missing' };
  const value = (Array.isArray(header) ? header.join(', ') : header).trim();
  if (value.length > MAX_IF_MATCH_LENGTH)
    return { kind: 'malformed', message: `If-Match is longer than ${MAX_IF_MATCH_LENGTH} characters. ${AS_RETRIEVE_GIVES_IT}` };
  if (value === '*') return { kind: 'any' };
  const revision = /^"(0|[1-9]\d{0,14})"$/.exec(value);
  if (revision) return { kind: 'revision', revision: Number(revision[1]) };
  if (/^(W\/)?"[\x21\x23-\x7e]*"$/.test(value)) {
    return {
      kind: 'never',
      message: value.startsWith('W/')
        ? `If-Match ${value} is a weak ETag, and If-Match compares strongly: no revision matches it. ${AS_RETRIEVE_GIVES_IT}`
        : `If-Match ${value} names no revision of the order (its ETags are revision numbers, such as "3"). ${AS_RETRIEVE_GIVES_IT}`,
    };
  }
  if (value.includes(',')) return { kind: 'malformed', message: `Send one ETag in If-Match, not a list. ${AS_RETRIEVE_GIVES_IT}` };
  return { kind: 'malformed', message: AS_RETRIEVE_GIVES_IT };
}
