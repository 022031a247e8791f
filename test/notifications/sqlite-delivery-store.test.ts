// The SQLite delivery store (<dataDir>/notifications.db) against the shared contract; `second` is
// another connection to the same file, as a second process on one data directory has.
import t from 'tap';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { tempDir } from '../support/eventstore-temp-dir.js';
import { deliveryStoreContract } from './delivery-store-contract.js';

deliveryStoreContract(t, 'sqlite', async () => {
  const { dir, remove } = await tempDir('deliveries');
  const store = openSqliteDeliveryStore(dir);
  const others: { close(): Promise<void> }[] = [];
  return {
    store,
    second: async () => {
      const other = openSqliteDeliveryStore(dir);
      others.push(other);
      return other;
    },
    cleanup: async () => {
      await store.close();
      for (const other of others) await other.close();
      await remove();
    },
  };
});
