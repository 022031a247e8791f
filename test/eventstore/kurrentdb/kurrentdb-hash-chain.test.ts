// The hash chain on KurrentDB, unit-tested without a server (none can run here): what the adapter puts in
// each event's metadata, what it reads back, the stream state an append is chained with, and the verifier
// over a per-stream chain (events of many streams interleaved in $all, as concurrent replicas write them).
import t from 'tap';
import { ANY, NO_STREAM, WrongExpectedRevision, exactly } from '../../../src/eventstore/event-store.js';
import type { HashedLog } from '../../../src/eventstore/hashed-log.js';
import { GENESIS, eventHash, type HashedEvent } from '../../../src/eventstore/hash-chain.js';
import { chainedStreamState, toEventData, toHashedEvent, withChainMetadata } from '../../../src/eventstore/kurrentdb/kurrentdb-mapping.js';
import { verifyChain } from '../../../src/eventstore/verify-chain.js';

t.test('an append is chained onto the tail it read, with that revision as the expected one', async (t) => {
  t.equal(chainedStreamState('s', NO_STREAM, undefined), 'no_stream');
  t.equal(chainedStreamState('s', ANY, undefined), 'no_stream', "'any' on a new stream: it must still be new when written");
  t.equal(
    chainedStreamState('s', ANY, { revision: 4n, hash: 'a'.repeat(64) }),
    4n,
    "'any': the revision read, so that a concurrent append makes this one retry",
  );
  t.equal(chainedStreamState('s', exactly(4n), { revision: 4n, hash: null }), 4n);
  t.throws(() => chainedStreamState('s', exactly(3n), { revision: 4n, hash: null }), WrongExpectedRevision);
  t.throws(() => chainedStreamState('s', NO_STREAM, { revision: 0n, hash: null }), WrongExpectedRevision);
  t.throws(() => toEventData('a\nb', [{ type: 'A', data: {} }]), /line break/);
});

/** Resolved events as the client returns them for what withChainMetadata sent. */
function written(
  stream: string,
  firstRevision: bigint,
  firstPosition: bigint,
  data: ReturnType<typeof withChainMetadata>,
  metadataAsBytes = false,
) {
  return data.map((sent, i) => ({
    event: {
      streamId: stream,
      id: sent.id,
      revision: firstRevision + BigInt(i),
      type: sent.type,
      created: new Date(),
      data: sent.data,
      isJson: true as const,
      metadata: metadataAsBytes ? new TextEncoder().encode(JSON.stringify(sent.metadata)) : sent.metadata,
      position: { commit: firstPosition + BigInt(i) * 100n, prepare: firstPosition + BigInt(i) * 100n },
    },
  }));
}

t.test('each event carries its hash in metadata, chained to the previous event of its stream; read back, it verifies', async (t) => {
  const tail = { revision: 1n, hash: 'b'.repeat(64) };
  const sent = withChainMetadata(
    'order:g:r',
    toEventData('order:g:r', [
      { type: 'OrderPlanned', data: { order_id: 1, n: 1.5 } },
      { type: 'PackingInstructionsDownloaded', data: { order_id: 1 } },
    ]),
    tail,
    1795600000000123n,
  );
  const metadata = sent.map((event) => event.metadata as { hash: string; recorded_at_us: string });
  t.same(
    metadata.map((m) => m.recorded_at_us),
    ['1795600000000123', '1795600000000123'],
  );
  t.equal(
    metadata[0]!.hash,
    eventHash(tail.hash, {
      stream: 'order:g:r',
      revision: 2n,
      type: 'OrderPlanned',
      data: '{"order_id":1,"n":1.5}',
      recordedAtMicros: 1795600000000123n,
    }),
  );
  t.equal(
    metadata[1]!.hash,
    eventHash(metadata[0]!.hash, {
      stream: 'order:g:r',
      revision: 3n,
      type: 'PackingInstructionsDownloaded',
      data: '{"order_id":1}',
      recordedAtMicros: 1795600000000123n,
    }),
  );
  for (const asBytes of [false, true]) {
    const read = written('order:g:r', 2n, 1000n, sent, asBytes).map((resolved) => toHashedEvent(resolved)!);
    t.same(
      read.map((event) => event.hash),
      metadata.map((m) => m.hash),
      asBytes ? 'metadata as bytes' : 'metadata as parsed JSON',
    );
    t.equal(eventHash(tail.hash, read[0]!), read[0]!.hash, 'what is read hashes to what was written');
  }
  t.equal(
    (withChainMetadata('s', toEventData('s', [{ type: 'A', data: 1 }]), undefined, 1n)[0]!.metadata as { hash: string }).hash,
    eventHash(GENESIS, { stream: 's', revision: 0n, type: 'A', data: '1', recordedAtMicros: 1n }),
    'a new stream starts from the genesis hash',
  );
  const [withoutChain] = written('s', 0n, 1n, [{ ...sent[0]!, metadata: { other: 1 } as never }]);
  t.equal(toHashedEvent(withoutChain!)?.hash, null, 'an event written before the chain existed has none');
});

/** A store that only answers what verifyChain reads, over a per-stream chain. */
function storeOf(events: HashedEvent[]): HashedLog {
  return {
    chainScope: 'stream',
    readHashed: async (after?: bigint, limit?: number) =>
      events.filter((event) => after === undefined || event.position > after).slice(0, limit ?? Infinity),
  } as unknown as HashedLog;
}

function interleaved(): HashedEvent[] {
  // Two replicas appending to their streams at once: $all interleaves them; each stream's chain is its own.
  const events: HashedEvent[] = [];
  const last = new Map<string, string>();
  for (let i = 0; i < 6; i++) {
    const stream = i % 2 === 0 ? 'order-a' : 'order-b';
    const content = {
      stream,
      revision: BigInt(Math.floor(i / 2)),
      type: 'Noted',
      data: JSON.stringify({ i }),
      recordedAtMicros: 1000n + BigInt(i),
    };
    const hash = eventHash(last.get(stream) ?? GENESIS, content);
    last.set(stream, hash);
    events.push({ ...content, position: BigInt(i + 1) * 10n, hash });
  }
  return events;
}

t.test('the verifier over per-stream chains: interleaved streams hold; a change or a removal is named', async (t) => {
  t.match(await verifyChain(storeOf(interleaved()), { pageSize: 2 }), { ok: true, events: 6 });
  const changed = interleaved();
  changed[3] = { ...changed[3]!, data: '{"i":99}' };
  t.match(await verifyChain(storeOf(changed)), { ok: false, kind: 'changed', position: 40n, stream: 'order-b' });
  const removed = interleaved().filter((event) => event.position !== 30n);
  t.match(await verifyChain(storeOf(removed)), { ok: false, kind: 'removed', position: 50n, reason: /revision 1 of order-a is missing/ });
  const legacy = [
    { ...interleaved()[0]!, hash: null },
    ...interleaved()
      .slice(1)
      .map((event) =>
        event.stream === 'order-a' ? { ...event, hash: event.revision === 1n ? eventHash(GENESIS, event) : event.hash } : event,
      ),
  ];
  // order-a's first event predates the chain: the stream's chain starts at its next event, from the genesis hash.
  const relinked = legacy.map((event, _i, all) =>
    event.stream === 'order-a' && event.revision === 2n
      ? { ...event, hash: eventHash(all.find((e) => e.stream === 'order-a' && e.revision === 1n)!.hash!, event) }
      : event,
  );
  t.match(await verifyChain(storeOf(relinked)), { ok: true, events: 6 });
  await t.rejects(
    verifyChain(storeOf(interleaved()), { from: { position: 10n, hash: GENESIS } }),
    RangeError,
    'no checkpoint on per-stream chains',
  );
});
