// Three replicas as real processes on one data directory share the planning (issue 24); the scenarios
// are in support/planning-scenarios.ts, and replicas-mongodb.test.ts runs them on MongoDB.
import t from 'tap';
import { eachOrderOnce, killedReplica } from './support/planning-scenarios.js';

t.test('three replicas on one data directory: each of 60 orders planned once', (t) => eachOrderOnce(t, false));
t.test('SIGKILL of a replica holding claims: its orders are planned by the others once, after its lease', (t) => killedReplica(t, false));
