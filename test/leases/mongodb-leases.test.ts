// The MongoDB lease adapter against a real server when MONGODB_URL is set (the test servers run
// FerretDB, whose single-document updates are not atomic: the race tests are the point), in each place
// that keeps leases: the work lease store, and the delivery store's webhook, e-mail, Kafka and journal leases.
import t from 'tap';
import { dropDatabase, scratchDatabaseName } from '../support/mongodb.js';
import { openMongoWorkLeaseStore } from '../../src/leases/mongodb-work-leases.js';
import { openMongoDeliveryStore } from '../../src/notifications/mongodb/mongodb-delivery-store.js';
import { leaseStoreContract } from './lease-store-contract.js';

const url = process.env.MONGODB_URL;
if (url) {
  leaseStoreContract(t, 'mongodb work lease store', async () => {
    const dbName = scratchDatabaseName('claims_contract');
    return { openStore: () => openMongoWorkLeaseStore(url, dbName), remove: () => dropDatabase(url, dbName) };
  });
  for (const leases of ['webhookLeases', 'emailLeases', 'kafkaLeases', 'journalLeases'] as const) {
    leaseStoreContract(t, `mongodb delivery store, ${leases}`, async () => {
      const dbName = scratchDatabaseName('delivery_leases');
      return {
        openStore: async () => {
          const store = await openMongoDeliveryStore(url, dbName);
          return Object.assign(store[leases], { close: () => store.close() });
        },
        remove: () => dropDatabase(url, dbName),
      };
    });
  }
} else {
  t.test(
    'mongodb: lease store contract',
    { skip: 'MongoDB contract: MONGODB_URL is not set; no MongoDB server runs on this machine' },
    async () => {},
  );
}
