import t from 'tap';
import { openSqliteClaimStore } from '../../src/checkpoints/sqlite-claim-store.js';
import { tempDir } from '../support/eventstore-temp-dir.js';
import { claimStoreContract } from './claim-store-contract.js';

claimStoreContract(t, 'sqlite', async () => {
  const { dir, remove } = await tempDir('claims');
  return { openStore: () => openSqliteClaimStore(dir), remove };
});
