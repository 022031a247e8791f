import t, { type Test } from 'tap';
import { openSqliteOrderReadModel } from '../../../src/orders/read-model/sqlite-order-read-model.js';
import { removeDataDir, tempDataDir } from '../../support/service.js';
import { orderReadModelContract, recorded, submitted } from './order-read-model-contract.js';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { setImmediate, setTimeout } from 'node:timers/promises';
import { checksumOf } from '../../../src/orders/read-model/document-checksum.js';

orderReadModelContract(t, 'SQLite', async () => {
  const dataDir = tempDataDir();
  const readModel = openSqliteOrderReadModel(dataDir);
  return {
    readModel,
    async damage(id, document, from, to) {
      // Another connection, as an edit or a flip on disk would be: the checksum column is left as it was.
      const db = new Database(join(dataDir, 'read-models.db'));
      const [table, column] = document === 'order' ? ['orders', 'view'] : ['pallet_contents', 'document'];
      const changed = db
        .prepare(`UPDATE ${table} SET ${column} = replace(${column}, ?, ?) WHERE id = ? AND instr(${column}, ?) > 0`)
        .run(from, to, id, from).changes;
      db.close();
      if (changed !== 1) throw new Error(`order ${id}: no ${document} holding ${from}`);
      // The read model's reads of this turn share a snapshot from before the change (see the last test): the next turn sees it.
      await setImmediate();
    },
    async cleanup() {
      await readModel.close();
      removeDataDir(dataDir);
    },
  };
});

t.test('a read model written by another schema version is dropped and rebuilt from the start of the log', async (t) => {
  const dataDir = await closedReadModelWithOneOrder(t);
  const db = new Database(join(dataDir, 'read-models.db'));
  db.pragma('user_version = 1');
  db.close();

  const reopened = openSqliteOrderReadModel(dataDir);
  t.teardown(() => reopened.close());
  t.equal(await reopened.checkpoint(), undefined, 'the projector starts again from the first event');
  t.equal(await reopened.getById(1), undefined);
  await reopened.apply([submitted(1, 'g', 'A')]);
  t.equal((await reopened.getById(1))?.view.reference, 'A');
});

t.test('a read model of the current version is kept on reopening', async (t) => {
  const dataDir = await closedReadModelWithOneOrder(t);
  const reopened = openSqliteOrderReadModel(dataDir);
  t.teardown(() => reopened.close());
  t.equal((await reopened.getById(1))?.view.reference, 'A');
  t.not(await reopened.checkpoint(), undefined);
});

t.test('reads share a transaction for one event-loop turn at most, and a write ends it first', async (t) => {
  const dataDir = tempDataDir();
  const readModel = openSqliteOrderReadModel(dataDir);
  const other = new Database(join(dataDir, 'read-models.db'), { timeout: 0 }); // a busy checkpoint answers at once
  t.teardown(async () => {
    other.close();
    await readModel.close();
    removeDataDir(dataDir);
  });
  const countSeenByOther = () => (other.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n;
  const truncateBlocked = () => (other.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[])[0]!.busy === 1;

  await readModel.apply([submitted(1, 'g', 'A')]);
  t.equal((await readModel.getViewJson(1))?.company_group, 'g');
  await readModel.apply([submitted(2, 'g', 'B')]);
  t.equal(countSeenByOther(), 2, 'a write in the turn of a read is committed when apply resolves');
  t.equal((await readModel.getViewJson(2))?.company_group, 'g', 'and a read after it sees it');
  t.ok(truncateBlocked(), 'within the turn, the read holds its snapshot');
  await setImmediate();
  t.notOk(truncateBlocked(), 'once the turn is over it does not');
});

t.test("retrieve's cached bodies: dropped by this model's own writes and by any other connection's commit", async (t) => {
  const dataDir = tempDataDir();
  const readModel = openSqliteOrderReadModel(dataDir);
  const other = new Database(join(dataDir, 'read-models.db'));
  t.teardown(async () => {
    other.close();
    await readModel.close();
    removeDataDir(dataDir);
  });
  const body = async () => String((await readModel.getViewJson(1))!.viewJson);
  const reference = async () => (JSON.parse(await body()) as { reference: string }).reference;

  await readModel.apply([submitted(1, 'g', 'A')]);
  await setImmediate();
  const unread = readModel.readyViewJson(1)?.viewJson;
  const first = await body();
  t.equal(unread, first, 'retrieve has an order never read yet at once too: its row, read and checked');
  t.equal(readModel.readyViewJson(2), undefined, 'and nothing for an order that is not there');
  t.equal(await body(), first, 'a second read (from the cache) answers the same');
  t.equal(readModel.readyViewJson(1)?.viewJson, first, 'and retrieve finds it without a read');
  await setImmediate();
  // This model's own write: the projector applies the order's plan.
  await readModel.apply([
    recorded(
      'OrderPlanned',
      {
        order_id: 1,
        service_ref: 'SO-000001',
        reference: 'A',
        company_group: 'g',
        plan: { pallets: [], containers: [] },
        planned_at: '2026-11-20T09:16:00.000000',
      },
      'order:g:A',
    ),
  ]);
  const planned = await body();
  t.not(planned, first, 'its own write replaces the cached body at once');
  t.same(JSON.parse(planned), (await readModel.getById(1))!.view, 'with the document as stored');
  await setImmediate();

  // Another replica's projector (another connection) writes a sound document: the next turn serves it.
  const row = other
    .prepare<[], { company_group: string; stream: string; view: string }>('SELECT company_group, stream, view FROM orders WHERE id = 1')
    .get()!;
  const view = row.view.replace('"reference":"A"', '"reference":"A3"');
  other.prepare('UPDATE orders SET view = ?, checksum = ? WHERE id = 1').run(view, checksumOf(row.company_group, row.stream, view));
  await setImmediate();
  t.equal(await reference(), 'A3', "another connection's commit is seen, not the cached body");
  t.equal(readModel.readyViewJson(1)?.viewJson, await body(), 'the cache holds the new body');
  other.prepare('UPDATE orders SET view = ?, checksum = ? WHERE id = 1').run(row.view, checksumOf(row.company_group, row.stream, row.view));
  await setTimeout(5);
  t.match(
    JSON.parse(readModel.readyViewJson(1)!.viewJson),
    { reference: 'A' },
    "past a millisecond, the file's version is read again: the commit emptied the cache, and the row is read",
  );
  t.equal(await reference(), 'A', 'and the read sees the commit');
  t.equal(readModel.readyViewJson(1)?.viewJson, await body(), 'which the cache then holds');
  await setTimeout(5);
  t.equal(readModel.readyViewJson(1)?.viewJson, await body(), 'past a millisecond with no commit by anyone else, the cache still answers');
  await setImmediate();

  // A flipped byte left without its checksum: the cached body must not hide it, the read refuses the document.
  other.prepare('UPDATE orders SET view = replace(view, \'"reference":"A"\', \'"reference":"A4"\') WHERE id = 1').run();
  await setTimeout(5);
  t.equal(readModel.readyViewJson(1), undefined, 'a damaged document is not vouched for: retrieve asks getViewJson');
  await t.rejects(readModel.getViewJson(1), { name: 'DamagedDocument' }, 'a damaged document is found even though its body was cached');
});

/** A data directory whose read model has applied one order and been closed. */
async function closedReadModelWithOneOrder(t: Test): Promise<string> {
  const dataDir = tempDataDir();
  t.teardown(() => removeDataDir(dataDir));
  const readModel = openSqliteOrderReadModel(dataDir);
  await readModel.apply([submitted(1, 'g', 'A')]);
  await readModel.close();
  return dataDir;
}
