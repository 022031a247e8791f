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
