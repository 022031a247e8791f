// The SQLite lease adapter, in each database that keeps leases: checkpoints.db (the work lease store) and
// notifications.db (webhook, e-mail, Kafka and journal leases, made durable with the store's other writes).
import t from 'tap';
import { openSqliteWorkLeaseStore } from '../../src/leases/sqlite-work-leases.js';
import { openSqliteDeliveryStore } from '../../src/notifications/sqlite/sqlite-delivery-store.js';
import { tempDir } from '../support/eventstore-temp-dir.js';
import { leaseStoreContract } from './lease-store-contract.js';

leaseStoreContract(t, 'sqlite work lease store', async () => {
  const { dir, remove } = await tempDir('claims');
  return { openStore: () => openSqliteWorkLeaseStore(dir), remove };
});

for (const leases of ['webhookLeases', 'emailLeases', 'kafkaLeases', 'journalLeases'] as const) {
  leaseStoreContract(t, `sqlite delivery store, ${leases}`, async () => {
    const { dir, remove } = await tempDir('delivery-leases');
    return {
      openStore: () => {
        const store = openSqliteDeliveryStore(dir);
        return Object.assign(store[leases], { close: () => store.close() });
      },
      remove,
    };
  });
}
