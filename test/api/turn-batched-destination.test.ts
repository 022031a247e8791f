import t from 'tap';
import { pino } from 'pino';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { batchedPerTurn, type FlushableDestination } from '../../src/observability/turn-batched-destination.js';
import { flushLogs } from '../../src/observability/logger.js';

/** A destination that records each write it is handed, and each flush in between. */
function recording(flushError?: Error) {
  const calls: string[] = [];
  const destination: FlushableDestination = {
    write: (text: string) => void calls.push(text),
    flush: (callback) => {
      calls.push('<flush>');
      callback?.(flushError);
    },
    flushSync: () => void calls.push('<flushSync>'),
  };
  return { calls, destination };
}

t.test('the lines of one turn reach the destination as one write, in order; the next turn is another write', async (t) => {
  const { calls, destination } = recording();
  const batched = batchedPerTurn(destination);
  batched.write('a\n');
  batched.write('b\n');
  batched.write('c\n');
  t.same(calls, [], 'nothing is written during the turn');
  await nextTurn();
  t.same(calls, ['a\nb\nc\n']);
  batched.write('d\n');
  await nextTurn();
  t.same(calls, ['a\nb\nc\n', 'd\n']);
  await nextTurn();
  t.same(calls, ['a\nb\nc\n', 'd\n'], 'a turn without lines writes nothing');
});

t.test('flush and flushSync hand the pending lines over first, then flush the destination', async (t) => {
  const { calls, destination } = recording();
  const batched = batchedPerTurn(destination);
  batched.write('a\n');
  batched.flush();
  t.same(calls, ['a\n', '<flush>']);
  batched.write('b\n');
  batched.flushSync();
  t.same(calls, ['a\n', '<flush>', 'b\n', '<flushSync>']);
  await nextTurn();
  t.same(calls, ['a\n', '<flush>', 'b\n', '<flushSync>'], 'the turn that follows has nothing left to write');
});

t.test("a pino logger on it keeps pino's lines and their order", async (t) => {
  const { calls, destination } = recording();
  const logger = pino({ base: null, timestamp: false }, batchedPerTurn(destination));
  logger.info('one');
  logger.warn('two');
  await nextTurn();
  t.equal(calls.length, 1);
  t.same(calls[0]!.trimEnd().split('\n').map((line) => JSON.parse(line)), [{ level: 30, msg: 'one' }, { level: 40, msg: 'two' }]);
});

t.test('flushLogs resolves after the flush, even when the destination reports an error (fsync on a pipe)', async (t) => {
  const { calls, destination } = recording(Object.assign(new Error('EINVAL: invalid argument, fsync'), { code: 'EINVAL' }));
  const logger = pino({ base: null, timestamp: false }, batchedPerTurn(destination));
  logger.info('last words');
  await flushLogs(logger);
  t.equal(calls.length, 2);
  t.match(calls[0], /"msg":"last words"/);
  t.equal(calls[1], '<flush>');
});
