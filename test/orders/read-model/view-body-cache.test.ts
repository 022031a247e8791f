import t from 'tap';
import { ViewBodyCache } from '../../../src/orders/read-model/view-body-cache.js';

const body = (bytes: number) => ({ company_group: 'g', viewJson: ' '.repeat(bytes) });

t.test('keeps the most recently used bodies within its budget of characters', async (t) => {
  const cache = new ViewBodyCache(6400);
  for (let id = 1; id <= 3; id++) cache.set(id, body(100));
  cache.get(1); // 2 is now the least recently used
  for (let id = 4; id <= 64; id++) cache.set(id, body(100));
  t.equal(cache.size, 64, '64 bodies of 100 characters fill 6,400');
  cache.set(65, body(100));
  t.equal(cache.get(2), undefined, 'the least recently used went first');
  t.ok(cache.get(1), 'the one read again stayed');
  t.equal(cache.size, 64);
});

t.test('a body over 1/64 of the budget is not kept; delete and clear drop entries and their characters', async (t) => {
  const cache = new ViewBodyCache(6400);
  cache.set(1, body(101));
  t.equal(cache.get(1), undefined);
  cache.set(2, body(100));
  cache.set(2, body(100)); // replacing counts its characters once
  cache.delete(2);
  t.equal(cache.get(2), undefined);
  for (let id = 1; id <= 64; id++) cache.set(id, body(100));
  t.equal(cache.size, 64, 'the deleted characters were given back');
  cache.clear();
  t.equal(cache.size, 0);
  for (let id = 1; id <= 64; id++) cache.set(id, body(100));
  t.equal(cache.size, 64, 'so were the cleared ones');
});
