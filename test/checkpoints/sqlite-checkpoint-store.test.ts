import t from 'tap';
import { openSqliteCheckpointStore } from '../../src/checkpoints/sqlite-checkpoint-store.js';
import { tempDir } from '../support/eventstore-temp-dir.js';
import { checkpointStoreContract } from './checkpoint-store-contract.js';

checkpointStoreContract(t, 'sqlite', async () => {
  const { dir, remove } = await tempDir('checkpoints');
  const store = openSqliteCheckpointStore(dir);
  return {
    store,
    reopen: async () => openSqliteCheckpointStore(dir),
    cleanup: async () => {
      await store.close();
      await remove();
    },
  };
});
