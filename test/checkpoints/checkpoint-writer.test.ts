// checkpointWriter: marks given within one turn, or within the pause after a write, are written once,
// the newest; one write at a time.
import t from 'tap';
import type { CheckpointStore } from '../../src/checkpoints/checkpoint-store.js';
import { checkpointWriter } from '../../src/checkpoints/checkpoint-writer.js';

/** A store whose saves are recorded, and held until released when `hold` is set. */
function recordingStore(options: { hold?: boolean; fail?: (position: bigint) => boolean } = {}) {
  const writes: bigint[] = [];
  const held: (() => void)[] = [];
  let running = 0;
  let overlapped = false;
  const store = {
    async save(_consumer: string, position: bigint) {
      running += 1;
      if (running > 1) overlapped = true;
      if (options.hold) await new Promise<void>((resolve) => held.push(resolve));
      running -= 1;
      if (options.fail?.(position)) throw new Error(`disk full at ${position}`);
      writes.push(position);
    },
  } as unknown as CheckpointStore;
  return { store, writes, held, overlapped: () => overlapped };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

t.test('the marks of one turn make one write, of the newest', async (t) => {
  const { store, writes } = recordingStore();
  const writer = checkpointWriter(store, 'planning', (error) => t.fail(String(error)));
  writer.save(1n);
  writer.save(2n);
  writer.save(5n);
  t.strictSame(writes, [], 'nothing written before the turn ends');
  await writer.settled();
  t.strictSame(writes, [5n]);
  writer.save(7n);
  await writer.settled();
  t.strictSame(writes, [5n, 7n], 'a later turn writes again');
});

t.test('marks given while a write runs wait for it and make one more write, of the newest', async (t) => {
  const { store, writes, held, overlapped } = recordingStore({ hold: true });
  const writer = checkpointWriter(store, 'planning', (error) => t.fail(String(error)), { minIntervalMs: 0 });
  writer.save(1n);
  while (held.length === 0) await nextTurn();
  writer.save(2n);
  writer.save(3n);
  held.shift()!();
  while (held.length === 0) await nextTurn();
  held.shift()!();
  await writer.settled();
  t.strictSame(writes, [1n, 3n]);
  t.notOk(overlapped(), 'never two writes at once');
});

t.test('a failed write is reported and the next mark is written', async (t) => {
  const { store, writes } = recordingStore({ fail: (position) => position === 1n });
  const errors: unknown[] = [];
  const writer = checkpointWriter(store, 'planning', (error) => errors.push(error));
  writer.save(1n);
  await writer.settled();
  writer.save(2n);
  await writer.settled();
  t.equal(errors.length, 1);
  t.match(String(errors[0]), /disk full at 1/);
  t.strictSame(writes, [2n]);
});

t.test('marks given within the pause after a write make one more write, of the newest, when it ends', async (t) => {
  const { store, writes } = recordingStore();
  const writer = checkpointWriter(store, 'planning', (error) => t.fail(String(error)), { minIntervalMs: 150 });
  writer.save(1n);
  await nextTurn();
  await nextTurn();
  t.strictSame(writes, [1n], 'the first mark is written at the end of its turn');
  writer.save(2n);
  writer.save(3n);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.strictSame(writes, [1n], 'nothing more within the pause');
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.strictSame(writes, [1n, 3n], 'the newest, once the pause is over');
  writer.save(4n);
  await writer.settled();
  t.strictSame(writes, [1n, 3n, 4n], 'settled() writes at once, without the pause');
});
