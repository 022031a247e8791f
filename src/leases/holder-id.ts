// Who holds a lease: one id per running process, for every lease it acquires (planning, singleton work,
// notifications), so that a restarted process does not renew its predecessor's leases.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';

export function holderId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}
