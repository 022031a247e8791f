// The MongoDB claim store: the shared contract against a real server when MONGODB_URL is set (the test
// servers run FerretDB, whose single-document updates are not atomic: the race tests are the point).
import t from 'tap';
import { dropDatabase, scratchDatabaseName } from '../support/mongodb.js';
import { openMongoClaimStore } from '../../src/checkpoints/mongodb-claim-store.js';
import { claimStoreContract } from './claim-store-contract.js';

const url = process.env.MONGODB_URL;
if (url) {
  claimStoreContract(t, 'mongodb', async () => {
    const dbName = scratchDatabaseName('claims_contract');
    return { openStore: () => openMongoClaimStore(url, dbName), remove: () => dropDatabase(url, dbName) };
  });
} else {
  t.test('mongodb: claim store contract', { skip: 'MongoDB contract: MONGODB_URL is not set; no MongoDB server runs on this machine' }, async () => {});
}
