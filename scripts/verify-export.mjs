#!/usr/bin/env node
// Checks an order's history export (GET .../detailed-orders/{id}/history/export) offline, with Node's
// crypto only: every event's hash, the digest's Ed25519 signature against the public key, and that the
// digest lists exactly the export's events (same positions, same hashes, same order, same stream).
// Usage: node scripts/verify-export.mjs <export.jsonl> <public-key.pem | public-key.json>
// Exit 0 and "export verified: ..." when it all holds; exit 1 and the first thing that does not.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const HEADER = 'orders-audit-digest v1';
const LINE_FIELDS = ['position', 'stream', 'revision', 'type', 'recorded_at_us', 'recorded_at', 'data', 'previous_hash', 'hash'];

export function verifyExport(exportText, publicKeyText) {
  const pem = publicKeyText.trimStart().startsWith('{') ? JSON.parse(publicKeyText).public_key_pem : publicKeyText;
  const publicKey = createPublicKey(pem);
  const lines = exportText.split('\n').filter((line) => line !== '');
  if (lines.length < 2) return fail('an export has at least one event line and the digest line');
  let digest;
  let events;
  try {
    digest = JSON.parse(lines[lines.length - 1]).digest;
    events = lines.slice(0, -1).map((line) => JSON.parse(line));
  } catch (error) {
    return fail(`a line is not JSON (${error.message})`);
  }
  if (typeof digest?.signed !== 'string' || typeof digest.signature !== 'string') return fail('the last line is not {"digest": {...}} with signed and signature');
  if (!verify(null, Buffer.from(digest.signed, 'utf8'), publicKey, Buffer.from(digest.signature, 'base64'))) return fail('the digest signature does not verify with this public key');
  // From here on the signed text is the authority; the digest's other fields are only a copy of it.
  const signed = digest.signed.split('\n');
  if (signed[0] !== HEADER) return fail(`the signed text does not start with "${HEADER}"`);
  const field = (name) => signed.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
  const listed = signed.filter((line) => line.startsWith('event: ')).map((line) => line.slice(7).split(' '));
  const stream = field('stream');
  if (stream === undefined) return fail('the digest is not an export digest (it names no stream)');
  if (listed.length !== events.length) return fail(`the digest lists ${listed.length} events, the export has ${events.length}`);
  const copies = { chain: field('chain'), position: field('position'), head_hash: field('head'), time: field('time'), stream };
  for (const [name, value] of Object.entries(copies)) if (String(digest[name]) !== value) return fail(`the digest's ${name} is not what was signed`);
  if (JSON.stringify(digest.events) !== JSON.stringify(listed.map(([position, hash]) => ({ position, hash })))) return fail("the digest's events are not what was signed");
  for (const [i, event] of events.entries()) {
    const where = `line ${i + 1} (position ${event.position})`;
    // Nothing on a line goes unchecked: no field added, none left out, recorded_at a copy of recorded_at_us.
    if (JSON.stringify(Object.keys(event)) !== JSON.stringify(LINE_FIELDS)) return fail(`${where}: its fields are not ${LINE_FIELDS.join(', ')}`);
    if (!/^\d+$/.test(event.recorded_at_us) || event.recorded_at !== new Date(Number(BigInt(event.recorded_at_us) / 1000n)).toISOString()) return fail(`${where}: recorded_at is not recorded_at_us`);
    if (event.stream !== stream) return fail(`${where}: stream ${JSON.stringify(event.stream)} is not the signed stream ${JSON.stringify(stream)}`);
    const preimage = [event.previous_hash, event.type, event.stream, String(event.revision), event.recorded_at_us, event.data].join('\n');
    const hash = createHash('sha256').update(preimage, 'utf8').digest('hex');
    if (hash !== event.hash) return fail(`${where}: its content does not match its hash`);
    const [position, signedHash] = listed[i];
    if (position !== event.position || signedHash !== event.hash) return fail(`${where}: the signed digest lists position ${position} with hash ${signedHash} here`);
    if (i > 0 && BigInt(event.position) <= BigInt(events[i - 1].position)) return fail(`${where}: positions do not rise`);
    if (field('chain') === 'stream' && i > 0 && event.previous_hash !== events[i - 1].hash) return fail(`${where}: it does not chain onto the line before it`);
  }
  const last = events[events.length - 1];
  if (BigInt(field('position')) < BigInt(last.position)) return fail('the signed head is before the last event');
  return { ok: true, message: `export verified: ${events.length} events of ${stream}, signed with key ${digest.key_fingerprint ?? '?'} at log position ${field('position')} (head ${field('head')}) on ${field('time')}` };
}

function fail(message) {
  return { ok: false, message: `export NOT verified: ${message}` };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [exportFile, keyFile] = process.argv.slice(2);
  if (!exportFile || !keyFile) {
    console.error('usage: node scripts/verify-export.mjs <export.jsonl> <public-key.pem | public-key.json>');
    process.exit(2);
  }
  const result = verifyExport(readFileSync(exportFile, 'utf8'), readFileSync(keyFile, 'utf8'));
  console.log(result.message);
  process.exitCode = result.ok ? 0 : 1;
}
