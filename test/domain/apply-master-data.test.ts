import t from 'tap';
import { hashApiKey, masterDataDecider } from '../../src/master-data/apply-master-data.js';
import { ACME_KEY, testSeed } from '../support/seed.js';
import { eventsFor, spec } from './given.js';

t.test('given no master data, when a document is applied, then every group, key, lane and item is defined', async (t) => {
  const { decision } = spec(t, masterDataDecider).given().when(testSeed());
  t.ok(decision.ok);
  if (!decision.ok) return;
  const count = (type: string) => decision.events.filter((event) => event.type === type).length;
  t.equal(count('CompanyGroupDefined'), 2);
  t.equal(count('ApiKeyIssued'), 2);
  t.equal(count('LaneDefined'), 3);
  t.equal(count('ItemDefined'), 4);
  const key = decision.events.find((event) => event.type === 'ApiKeyIssued');
  t.same(key?.data, { company_group: 'Acme Group', name: 'acme-erp', key_hash: hashApiKey(ACME_KEY) });
  t.notMatch(JSON.stringify(decision.events), ACME_KEY, 'the plaintext key is never recorded');
});

t.test('given the document was applied, when it is applied again, then nothing is recorded', async (t) => {
  spec(t, masterDataDecider)
    .given(...eventsFor(testSeed()))
    .when(testSeed())
    .then([]);
});

t.test(
  'given the document was applied, when the same document comes with its fields in another order, then nothing is recorded',
  async (t) => {
    const reordered = JSON.parse(
      JSON.stringify(testSeed(), (_k, v) =>
        v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
      ),
    );
    spec(t, masterDataDecider)
      .given(...eventsFor(testSeed()))
      .when(reordered)
      .then([]);
  },
);

t.test('given the document was applied, when one item changes dimensions, then only that item is redefined', async (t) => {
  const changed = testSeed();
  changed.company_groups[0]!.lanes[0]!.items[1]!.height = 31;
  const { decision } = spec(t, masterDataDecider)
    .given(...eventsFor(testSeed()))
    .when(changed);
  t.same(decision, {
    ok: true,
    events: [
      {
        type: 'ItemDefined',
        data: { lane_id: 101, item: { sku: 'SKU-1002', length: 60, width: 40, height: 31, weight: 14, upright: true } },
      },
    ],
  });
});

t.test('given the document was applied, when a new key is added, then only the key is issued', async (t) => {
  const changed = testSeed();
  changed.company_groups[1]!.api_keys.push({ name: 'second', key: 'a-second-key-for-other-group' });
  const { decision } = spec(t, masterDataDecider)
    .given(...eventsFor(testSeed()))
    .when(changed);
  t.ok(decision.ok);
  if (decision.ok)
    t.same(
      decision.events.map((event) => event.type),
      ['ApiKeyIssued'],
    );
});

t.test(
  'given a lane of one group, when a document puts that lane id in another group, then it is rejected naming the lane id',
  async (t) => {
    const moved = testSeed();
    moved.company_groups[1]!.lanes[0]!.id = 101;
    const { decision } = spec(t, masterDataDecider)
      .given(...eventsFor(testSeed()))
      .when(moved);
    t.notOk(decision.ok);
    if (!decision.ok)
      t.match(decision.errors, { company_groups: [{}, { lanes: [{ id: [/Lane 101 already belongs to company group "Acme Group"/] }] }] });
  },
);

t.test('given a key of one group, when a document gives the same key to another group, then it is rejected naming the key', async (t) => {
  const stolen = testSeed();
  stolen.company_groups[1]!.api_keys[0]!.key = ACME_KEY;
  const { decision } = spec(t, masterDataDecider)
    .given(...eventsFor(testSeed()))
    .when(stolen);
  t.notOk(decision.ok);
  if (!decision.ok)
    t.match(decision.errors, { company_groups: [{}, { api_keys: [{ key: [/already issued to another company group/] }] }] });
});
