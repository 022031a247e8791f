// The MongoDB checkpoint store: the shared contract against a real server when MONGODB_URL is set
// (skipped, with the reason, when not), and always: the position and database-name helpers, the BSON
// encoding of positions, and the real driver against an address where nothing listens.
import { dropDatabase, scratchDatabaseName } from '../support/mongodb.js';
import { createServer } from 'node:net';
import { BSON, Long } from 'mongodb';
import t from 'tap';
import {
  databaseName,
  fromStoredPosition,
  openMongoCheckpointStore,
  toStoredPosition,
} from '../../src/checkpoints/mongodb-checkpoint-store.js';
import { checkpointStoreContract } from './checkpoint-store-contract.js';

const url = process.env.MONGODB_URL;
if (url) {
  checkpointStoreContract(t, 'mongodb', async () => {
    const dbName = scratchDatabaseName('checkpoints_contract');
    const store = await openMongoCheckpointStore(url, dbName);
    return {
      store,
      reopen: () => openMongoCheckpointStore(url, dbName),
      cleanup: async () => {
        await store.close();
        await dropDatabase(url, dbName);
      },
    };
  });
} else {
  t.test(
    'mongodb: checkpoint store contract',
    { skip: 'MongoDB contract: MONGODB_URL is not set; no MongoDB server runs on this machine' },
    async () => {},
  );
}

t.test('positions are stored as int64: exact beyond 2^53, rejected beyond 2^63', async (t) => {
  for (const position of [0n, 1n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)]) t.equal(toStoredPosition(position), position);
  t.throws(() => toStoredPosition(2n ** 63n), RangeError, 'the driver would wrap it silently');
  t.throws(() => toStoredPosition(-(2n ** 63n) - 1n), RangeError);
  t.throws(() => toStoredPosition(5 as unknown as bigint), TypeError);

  // What goes over the wire: the driver's own BSON codec.
  const big = 2n ** 62n + 12_345n;
  const bytes = BSON.serialize({ position: toStoredPosition(big) });
  const asLong = BSON.deserialize(bytes, { promoteLongs: false }).position;
  t.ok(asLong instanceof Long, 'a bigint is written as BSON int64');
  t.equal(BSON.deserialize(bytes, { useBigInt64: true }).position, big, 'and read back exactly with useBigInt64');
});

t.test('stored positions read back as bigint, whatever integer type holds them', async (t) => {
  t.equal(fromStoredPosition(2n ** 60n), 2n ** 60n);
  t.equal(fromStoredPosition(42), 42n, 'a small number written by hand');
  t.equal(fromStoredPosition(Long.fromBigInt(2n ** 61n + 3n)), 2n ** 61n + 3n);
  t.throws(() => fromStoredPosition(1.5), TypeError);
  t.throws(() => fromStoredPosition(2 ** 60), TypeError, 'a double beyond 2^53 is not trusted');
  t.throws(() => fromStoredPosition('12'), TypeError);
  t.throws(() => fromStoredPosition(undefined), TypeError);
});

t.test('the database: the argument, else the one in the URL, else orders', async (t) => {
  t.equal(databaseName('mongodb://localhost:27017', 'mine'), 'mine');
  t.equal(databaseName('mongodb://localhost:27017/fromurl', 'mine'), 'mine');
  t.equal(databaseName('mongodb://localhost:27017/fromurl'), 'fromurl');
  t.equal(databaseName('mongodb://localhost:27017/fromurl?replicaSet=rs0'), 'fromurl');
  t.equal(databaseName('mongodb://user:p%40ss@h1:27017,h2:27018/shop%2Dorders?authSource=admin'), 'shop-orders');
  t.equal(databaseName('mongodb+srv://cluster0.example.net/prod?retryWrites=true'), 'prod');
  t.equal(databaseName('mongodb://localhost:27017'), 'orders');
  t.equal(databaseName('mongodb://localhost:27017/'), 'orders');
  t.equal(databaseName('mongodb://localhost:27017/?replicaSet=rs0'), 'orders');
  t.equal(databaseName('mongodb://localhost:27017?replicaSet=rs0'), 'orders');
  t.equal(databaseName('mongodb://localhost/x', ''), 'x', 'an empty name means none given');
});

t.test('with no server: opening fails, promptly', async (t) => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const started = Date.now();
  await t.rejects(openMongoCheckpointStore(`mongodb://127.0.0.1:${port}/?serverSelectionTimeoutMS=300&directConnection=true`));
  t.ok(Date.now() - started < 10_000, 'within the server selection timeout');
});
