// The SIGKILL scenario (support/planning-scenarios.ts) with checkpoints, read models and claims on
// MongoDB (MONGODB_URL; the test servers run FerretDB), a database of its own, dropped after.
import t from 'tap';
import { killedReplica } from './support/planning-scenarios.js';

const skip = process.env.MONGODB_URL ? false : 'MONGODB_URL is not set: no test servers (scripts/test-servers/test-servers start)';
t.test('on MongoDB, SIGKILL of a replica holding claims: its orders are planned by the others once', { skip }, (t) =>
  killedReplica(t, true),
);
