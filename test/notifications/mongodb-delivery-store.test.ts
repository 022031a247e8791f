// The MongoDB delivery store: the shared contract against a real server when MONGODB_URL is set
// (skipped, with the reason, when not; a standalone mongod is enough), and always: the real driver
// against an address where nothing listens.
import { createServer } from 'node:net';
import t from 'tap';
import { MongoClient } from 'mongodb';
import { DELIVERY_COLLECTIONS } from '../../src/notifications/mongodb/collections.js';
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

t.test(
  "a replica that died between its claim's marker and the move of the due time: the delivery is taken again one hold later, not lost",
  { skip: url ? false : 'MONGODB_URL is not set' },
  async (t) => {
    const dbName = scratchDatabaseName('deliveries_dead_claimer');
    const store = await openMongoDeliveryStore(url!, dbName);
    t.teardown(async () => {
      await store.close();
      await dropDatabase(url!, dbName);
    });
    await store.webhooks.enqueue(
      [{ envelopeId: 'evt_1', eventPosition: 10n, companyGroup: 'Acme Group', url: 'http://127.0.0.1:1/hook', body: '{}' }],
      10n,
      1000,
    );
    const client = new MongoClient(url!);
    t.teardown(() => client.close());
    const [due] = await client.db(dbName).collection(DELIVERY_COLLECTIONS.deliveries).find({}).toArray();
    // What the dead replica left: its marker for the first hold, and the due time as it found it.
    await client
      .db(dbName)
      .collection(DELIVERY_COLLECTIONS.claimMarkers)
      .insertOne({ _id: `${due!._id}@1000#0` as never, at: 1000 });
    t.equal(await store.webhooks.claimDue(1500, 11_500), undefined, "within the dead replica's hold: held");
    const taken = await store.webhooks.claimDue(11_000, 21_000);
    t.equal(taken?.envelopeId, 'evt_1', 'one hold after it fell due: taken again');
    t.equal(await store.webhooks.claimDue(11_000, 21_000), undefined, 'by one claimer');
  },
);

t.test('with no server: opening fails, promptly', async (t) => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const started = Date.now();
  await t.rejects(openMongoDeliveryStore(`mongodb://127.0.0.1:${port}/?serverSelectionTimeoutMS=300&directConnection=true`));
  t.ok(Date.now() - started < 10_000, 'within the server selection timeout');
});
