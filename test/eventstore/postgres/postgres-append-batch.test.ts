// The append call's arguments (postgres-append-batch.ts): the dollar quoting never lets a text close its
// own quote, and the batch keeps each event's data apart, in order.
import fc from 'fast-check';
import t from 'tap';
import { NO_STREAM, exactly, WrongExpectedRevision } from '../../../src/eventstore/event-store.js';
import { batchArguments, dollarQuoted, outcomesOf } from '../../../src/eventstore/postgres/postgres-append-batch.js';

t.test('a dollar-quoted text closes exactly at its end, whatever it holds', async (t) => {
  const tags = fc.constantFrom('$o0$', '$o1$', '$o0', '$o', '$', 'o0$', '$o2$');
  const text = fc.array(fc.oneof(tags, fc.string({ maxLength: 4 })), { maxLength: 12 }).map((parts) => parts.join(''));
  fc.assert(
    fc.property(text, (body) => {
      const quoted = dollarQuoted(body);
      const tag = /^\$o[0-9a-z]+\$/.exec(quoted)![0];
      // The server ends the literal at the first closing tag after the opening one.
      const close = quoted.indexOf(tag, tag.length);
      return close === quoted.length - tag.length && quoted.slice(tag.length, close) === body;
    }),
    { numRuns: 2000 },
  );
  t.equal(dollarQuoted('plain'), '$o0$plain$o0$');
  t.equal(dollarQuoted('has $o0$ inside'), '$o1$has $o0$ inside$o1$');
});

t.test('the batch names each append and points each event at its data, in order', async (t) => {
  const { batch, data } = batchArguments([
    {
      stream: 'a',
      expected: NO_STREAM,
      events: [
        { id: 'i1', type: 'A', data: '{"x":1}' },
        { id: 'i2', type: 'B', data: '{}' },
      ],
    },
    { stream: 'b', expected: exactly(41n), events: [{ id: 'i3', type: 'C', data: '"s"' }] },
  ]);
  t.strictSame(JSON.parse(batch), [
    [
      'a',
      'no_stream',
      null,
      [
        ['i1', 'A', 1],
        ['i2', 'B', 2],
      ],
    ],
    ['b', 'exact', '41', [['i3', 'C', 3]]],
  ]);
  t.strictSame(data, ['{"x":1}', '{}', '"s"'], 'data[n] in SQL is 1-based: the n the batch names');
});

t.test("the function's answer becomes each append's outcome; anything else is refused", async (t) => {
  const appends = [
    { stream: 'a', expected: NO_STREAM, events: [{ id: 'i1', type: 'A', data: '{}' }] },
    { stream: 'b', expected: exactly(3n), events: [{ id: 'i2', type: 'B', data: '{}' }] },
    { stream: 'c', expected: NO_STREAM, events: [{ id: 'i3', type: 'C', data: '{}' }] },
  ];
  const [ok, conflict, none] = outcomesOf(appends, [
    ['ok', '0', '17'],
    ['conflict', '5'],
    ['conflict', null],
  ]);
  t.strictSame(ok, { ok: true, result: { nextRevision: 0n, position: 17n } });
  t.ok(!conflict!.ok && conflict!.error instanceof WrongExpectedRevision && conflict!.error.actual === 5n);
  t.ok(!none!.ok && none!.error.actual === 'no_stream' && none!.error.stream === 'c');
  t.throws(() => outcomesOf(appends, [['ok', '0', '1']]), /for 3 appends/);
  t.throws(() => outcomesOf(appends.slice(0, 1), [['maybe']]), /answered \["maybe"\]/);
});
