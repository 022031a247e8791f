import t from 'tap';
import { OrderIdBits } from '../../../src/orders/read-model/order-id-bits.js';

t.test('holds exactly the ids added, across its growth', async (t) => {
  const bits = new OrderIdBits();
  const ids = [0, 1, 7, 8, 9, 8191, 8192, 100_000, 1_000_003, 2 ** 32 - 1];
  for (const id of ids) bits.add(id);
  for (const id of ids) t.ok(bits.has(id), `${id} is in`);
  for (const id of [2, 6, 10, 8190, 8193, 99_999, 1_000_002, 2 ** 31, -1, 2 ** 32]) t.notOk(bits.has(id), `${id} is not`);
  t.throws(() => bits.add(-1), RangeError);
  t.throws(() => bits.add(2 ** 32), RangeError);
  t.throws(() => bits.add(1.5), RangeError);
});
