import t, { type Test } from 'tap';
import { openSqliteOrderReadModel } from '../../src/read-models/sqlite-order-read-model.js';
import { removeDataDir, tempDataDir } from '../support/service.js';
import { orderReadModelContract, submitted } from './order-read-model-contract.js';
import Database from 'better-sqlite3';
import { join } from 'node:path';

orderReadModelContract(t, 'SQLite', async () => {
  const dataDir = tempDataDir();
  const readModel = openSqliteOrderReadModel(dataDir);
  return {
    readModel,
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

/** A data directory whose read model has applied one order and been closed. */
async function closedReadModelWithOneOrder(t: Test): Promise<string> {
  const dataDir = tempDataDir();
  t.teardown(() => removeDataDir(dataDir));
  const readModel = openSqliteOrderReadModel(dataDir);
  await readModel.apply([submitted(1, 'g', 'A')]);
  await readModel.close();
  return dataDir;
}
