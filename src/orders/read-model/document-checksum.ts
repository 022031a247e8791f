// Every read-model document carries a checksum of the bytes it was stored as, checked on every read:
// a row whose pages SQLite still finds sound (quick_check ok) may hold flipped bytes, and a flipped
// field name or digit is well-formed JSON that would be served as the truth. CRC-32 (zlib's, native)
// finds every error burst of up to 32 bits and costs little beside reading the row; it is no defence
// against an edit that recomputes it: the scrubber compares documents with the log for that.
import { crc32 } from 'node:zlib';

/** The checksum of a document's stored text; parts (an order's scope, stream and view) are joined with a separator no part holds. */
export function checksumOf(...parts: string[]): number {
  return crc32(parts.join('\u0000'));
}

/** Whether `stored` is the checksum of `parts`, as read back (a damaged row may return any type in any column). */
export function checksumMatches(stored: unknown, parts: readonly unknown[]): boolean {
  return typeof stored === 'number' && parts.every((part) => typeof part === 'string') && stored === checksumOf(...(parts as string[]));
}

/**
 * A document whose checksum does not match what was read: never served. The read model wrapper
 * (self-repairing-read-model.ts) folds the order again from the log, stores it and reads again.
 */
export class DamagedDocument extends Error {
  constructor(
    readonly orderId: number,
    /** Which document: the order (retrieve, list, lookups) or its pallet contents. */
    readonly document: 'order' | 'pallet contents',
    /** The order's stream as the row names it, when that could be read; to be checked against the log, not trusted. */
    readonly streamHint?: string,
  ) {
    super(`order ${orderId}: its ${document} document in the read model does not match its checksum`);
    this.name = 'DamagedDocument';
  }
}
