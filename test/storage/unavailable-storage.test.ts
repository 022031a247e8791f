// A store whose server is away: its calls fail as StorageUnavailable naming it (the request answers
// 503), while every other error, and every result, passes through unchanged.
import t from 'tap';
import { guardUnavailable, StorageUnavailable } from '../../src/storage/unavailable-storage.js';

class Unreachable extends Error {}

t.test('the server is away: StorageUnavailable naming the store; anything else as it was', async (t) => {
  const calls: unknown[][] = [];
  const store = {
    label: 'kept',
    async read(id: number) {
      calls.push([id]);
      if (id === 1) throw new Unreachable('connect ECONNREFUSED 127.0.0.1:27017');
      if (id === 2) throw new RangeError('not a server problem');
      return `order ${id}`;
    },
  };
  const guarded = guardUnavailable(store, 'the MongoDB order read model', (error) => error instanceof Unreachable);
  t.equal(await guarded.read(3), 'order 3', 'a result passes through');
  const error = await guarded.read(1).catch((e: unknown) => e);
  t.ok(error instanceof StorageUnavailable);
  t.equal((error as StorageUnavailable).store, 'the MongoDB order read model');
  t.equal((error as Error).message, 'the MongoDB order read model is not reachable (connect ECONNREFUSED 127.0.0.1:27017)');
  await t.rejects(guarded.read(2), RangeError, 'other errors are not turned into 503s');
  t.equal(guarded.label, 'kept', 'fields are kept');
  t.strictSame(calls, [[3], [1], [2]], 'each call reached the store once, with its arguments');
});
