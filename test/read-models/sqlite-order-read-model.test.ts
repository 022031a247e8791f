import t from 'tap';
import { openSqliteOrderReadModel } from '../../src/read-models/sqlite-order-read-model.js';
import { removeDataDir, tempDataDir } from '../support/service.js';
import { orderReadModelContract } from './order-read-model-contract.js';

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
