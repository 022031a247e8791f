// src/validation/email.ts: the one e-mail rule of the service.
import t from 'tap';
import { isValidEmail } from '../../src/validation/email.js';

t.test('accepts ordinary and internationalised addresses', async (t) => {
  for (const address of [
    'logistics@acme.example',
    'first.last+tag@sub.example.co.uk',
    "o'brien@example.ie",
    'x@münchen.de',
    'a@xn--80ak6aa92e.com',
    `${'l'.repeat(64)}@example.com`,
  ]) {
    t.ok(isValidEmail(address), address);
  }
});

t.test('refuses what is not an address a relay would deliver', async (t) => {
  const refused = [
    '',
    'plain',
    '@example.com',
    'name@',
    'name@localhost',
    'name@example',
    'a@b',
    'two@@example.com',
    'sp ace@example.com',
    'name@exa mple.com',
    '.dot@example.com',
    'dot.@example.com',
    'do..t@example.com',
    'name@-example.com',
    'name@example-.com',
    'name@example.123',
    'name@[127.0.0.1]',
    '"quoted"@example.com',
    `${'l'.repeat(65)}@example.com`,
    `a@${'d'.repeat(250)}.com`,
    'name@example.com\n',
    'Name <name@example.com>',
    'name@example..com',
  ];
  for (const address of refused) t.notOk(isValidEmail(address), JSON.stringify(address));
});
