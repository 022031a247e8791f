// Event ids on SQLite: version-7 UUIDs that sort by the millisecond they were made in, and never repeat.
import t from 'tap';
import { timeOrderedId } from '../../src/eventstore/time-ordered-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

t.test('a version-7 UUID whose first 48 bits are the time in milliseconds', async (t) => {
  const id = timeOrderedId(0x0192_3456_789a);
  t.match(id, UUID_V7);
  t.equal(id.slice(0, 13), '01923456-789a');
  t.match(timeOrderedId(), UUID_V7, 'with the clock as it is');
});

t.test('ids of later milliseconds sort after earlier ones; none repeats, across the random refills', async (t) => {
  const ids: string[] = [];
  for (let ms = 0; ms < 1000; ms++) for (let i = 0; i < 5; i++) ids.push(timeOrderedId(1_790_000_000_000 + ms));
  t.equal(new Set(ids).size, ids.length, `${ids.length} ids, all different`);
  const byMillisecond = (id: string) => id.slice(0, 13);
  t.ok(
    ids.every((id, i) => i === 0 || byMillisecond(ids[i - 1]!) <= byMillisecond(id)),
    'in the order made, by millisecond',
  );
  t.strictSame([...ids].sort().map(byMillisecond), ids.map(byMillisecond), 'sorting them keeps the milliseconds in order');
});
