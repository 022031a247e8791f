// The MongoDB delivery store: the shared contract against a real server when MONGODB_URL is set
// (skipped, with the reason, when not; a standalone mongod is enough), and always: the real driver
// against an address where nothing listens.
import { createServer } from 'node:net';
import t from 'tap';
import { openMongoDeliveryStore } from '../../src/notifications/mongodb/mongodb-delivery-store.js';
import { dropDatabase, scratchDatabaseName } from '../support/mongodb.js';
import { deliveryStoreContract } from './delivery-store-contract.js';

const url = process.env.MONGODB_URL;
if (url) {
  deliveryStoreContract(t, 'mongodb', async () => {
    const dbName = scratchDatabaseName('deliveries_contract');
    const store = await openMongoDeliveryStore(url, dbName);
    const others: { close(): Promise<void> }[] = [];
    return {
      store,
      second: async () => {
        const other = await openMongoDeliveryStore(url, dbName);
        others.push(other);
        return other;
      },
      cleanup: async () => {
        await store.close();
        for (const other of others) await other.close();
        await dropDatabase(url, dbName);
      },
    };
  });
} else {
  t.test(
    'mongodb: delivery store contract',
    { skip: 'MongoDB contract: MONGODB_URL is not set; no MongoDB server runs on this machine' },
    async () => {},
  );
}

t.test('with no server: opening fails, promptly', async (t) => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const started = Date.now();
  await t.rejects(openMongoDeliveryStore(`mongodb://127.0.0.1:${port}/?serverSelectionTimeoutMS=300&directConnection=true`));
  t.ok(Date.now() - started < 10_000, 'within the server selection timeout');
});
