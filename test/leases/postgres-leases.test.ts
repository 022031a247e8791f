// The PostgreSQL lease adapter (the work lease store beside a PostgreSQL log) against a real server when
// POSTGRES_URL is set: each test's stores in a schema of its own, dropped afterwards.
import t from 'tap';
import { scratchSchema } from '../support/postgres.js';
import { openPostgresWorkLeaseStore } from '../../src/leases/postgres-work-leases.js';
import { leaseStoreContract } from './lease-store-contract.js';

const url = process.env.POSTGRES_URL;
if (url) {
  leaseStoreContract(t, 'postgresql work lease store', async () => {
    const scratch = await scratchSchema(url, 'claims_contract');
    return { openStore: () => openPostgresWorkLeaseStore(scratch.url), remove: () => scratch.drop() };
  });
} else {
  t.test(
    'postgresql: lease store contract',
    { skip: 'PostgreSQL contract: POSTGRES_URL is not set (scripts/test-servers/test-servers start runs one)' },
    async () => {},
  );
}
