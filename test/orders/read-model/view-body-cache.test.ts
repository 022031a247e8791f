import t from 'tap';
import { entryBytes, ViewBodyCache, viewCachesBytes } from '../../../src/orders/read-model/view-body-cache.js';

const body = (chars: number, fill = ' ') => ({ company_group: 'g', viewJson: fill.repeat(chars) });
// 64 entries of 100 one-byte characters fill the budget exactly.
const BUDGET = 64 * entryBytes(body(100));

t.test('keeps the most recently used bodies within its budget of bytes', async (t) => {
  const cache = new ViewBodyCache(BUDGET);
  for (let id = 1; id <= 3; id++) cache.set(id, body(100));
  cache.get(1); // 2 is now the least recently used
  for (let id = 4; id <= 64; id++) cache.set(id, body(100));
  t.equal(cache.size, 64, '64 bodies of 100 characters fill the budget');
  t.equal(cache.bytes, BUDGET);
  cache.set(65, body(100));
  t.equal(cache.get(2), undefined, 'the least recently used went first');
  t.ok(cache.get(1), 'the one read again stayed');
  t.equal(cache.size, 64);
});

t.test('a body over 1/64 of the budget is not kept; delete and clear drop entries and their bytes', async (t) => {
  const cache = new ViewBodyCache(BUDGET);
  const before = viewCachesBytes();
  cache.set(1, body(101));
  t.equal(cache.get(1), undefined);
  cache.set(2, body(100));
  cache.set(2, body(100)); // replacing counts its characters once
  cache.delete(2);
  t.equal(cache.get(2), undefined);
  for (let id = 1; id <= 64; id++) cache.set(id, body(100));
  t.equal(cache.size, 64, 'the deleted characters were given back');
  t.equal(viewCachesBytes() - before, BUDGET, 'the process-wide count follows');
  cache.clear();
  t.equal(cache.size, 0);
  t.equal(viewCachesBytes(), before, 'and gives them back');
  for (let id = 1; id <= 64; id++) cache.set(id, body(100));
  t.equal(cache.size, 64, 'so were the cleared ones');
});

t.test('characters past U+00FF count two bytes each, as V8 stores them', async (t) => {
  t.equal(entryBytes(body(100, '東')) - entryBytes(body(100)), 100);
  const cache = new ViewBodyCache(BUDGET);
  for (let id = 1; id <= 64; id++) cache.set(id, body(50, 'Ł'));
  t.equal(cache.size, 64, 'Ł is in Latin Extended-A: two bytes, 50 of them as much as 100 spaces');
  cache.set(65, body(100, 'é'));
  t.equal(cache.size, 64, 'é is one byte: one entry went for it');
});

t.test("offer keeps a view from its order's second read on: a scan of orders read once evicts nothing", async (t) => {
  const cache = new ViewBodyCache(BUDGET);
  cache.offer(1, body(100));
  t.equal(cache.get(1), undefined, 'a first read is only remembered');
  cache.offer(1, body(100));
  t.ok(cache.get(1), 'the second read keeps it');
  for (let id = 2; id <= 64; id++) {
    cache.offer(id, body(100));
    cache.offer(id, body(100));
  }
  t.equal(cache.size, 64, 'the budget is full of views read twice');
  for (let id = 1000; id < 1000 + 10 * 64; id++) cache.offer(id, body(100));
  t.equal(cache.size, 64, 'ten times as many orders read once');
  t.ok(Array.from({ length: 64 }, (_, i) => cache.peek(i + 1)).every(Boolean), 'left every view read twice in place');
  cache.offer(1000, body(100));
  t.ok(cache.peek(1000), 'one of them read again goes in');
  t.equal(cache.peek(1), undefined, 'in place of the least recently used');
});

t.test('the first reads are remembered in a fixed table: an older id is forgotten when a newer one takes its slot', async (t) => {
  const cache = new ViewBodyCache(BUDGET);
  const slots = 2 ** 16;
  cache.offer(5, body(10));
  cache.offer(5 + slots, body(10)); // the same slot: 5's first read is forgotten
  cache.offer(5, body(10));
  t.equal(cache.peek(5), undefined, 'its second read counts as a first');
  cache.offer(5, body(10));
  t.ok(cache.peek(5), 'and the third keeps it');
  cache.offer(6, body(10));
  cache.offer(6 + 1, body(10));
  cache.offer(6, body(10));
  t.ok(cache.peek(6), 'ids in other slots do not disturb it');
  cache.offer(0, body(10));
  t.equal(cache.peek(0), undefined, 'id 0 is not taken for read before by an empty slot');
});
