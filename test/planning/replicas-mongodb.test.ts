// The replicas scenarios (support/planning-scenarios.ts) with checkpoints, read models and claims on
// MongoDB (MONGODB_URL; the test servers run FerretDB), a database per test, dropped after. The log
// stays in the shared data directory. The SIGKILL scenario on MongoDB is replicas-mongodb-sigkill.test.ts
// (a file of its own: each file has 180 s).
import t from 'tap';
import { eachOrderOnce } from './support/planning-scenarios.js';

const skip = process.env.MONGODB_URL ? false : 'MONGODB_URL is not set: no test servers (scripts/test-servers/test-servers start)';
t.test('three replicas with claims on MongoDB: each of 60 orders planned once', { skip }, (t) => eachOrderOnce(t, true));
