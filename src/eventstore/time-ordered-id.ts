// Event ids for the SQLite log: UUIDs of version 7 (RFC 9562, section 5.7), whose first 48 bits are
// the Unix time in milliseconds and the rest random (74 bits). The events table keeps a unique index
// on id; with random (version 4) ids every event landed on a random leaf of that index, so each
// commit wrote one more page per event, and submits slowed as the index grew; these sort together and
// fill the index at its end (docs/benchmarks.md).
// Ids made within one millisecond are not ordered among themselves: unique, and close enough.
import { randomFillSync } from 'node:crypto';

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
// Random bytes are drawn 4 KiB at a time: one call per 256 ids rather than one per id.
const random = Buffer.alloc(4096);
let used = random.length;

export function timeOrderedId(now = Date.now()): string {
  if (used === random.length) {
    randomFillSync(random);
    used = 0;
  }
  const bytes = random.subarray(used, used + 16);
  used += 16;
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f); // version 7
  bytes[8] = 0x80 | (bytes[8]! & 0x3f); // variant 10
  let text = '';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text += '-';
    text += HEX[bytes[i]!];
  }
  return text;
}
