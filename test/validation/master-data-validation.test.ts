// validateMasterDataDocument: the example of master-data.md is accepted as is, and each rule of the
// document is checked with one bad value, asserting the whole error body (field and nesting).
import t, { type TAP } from 'tap';
import type { FieldErrors } from '../../src/validation/field-errors.js';
import { validateMasterDataDocument } from '../../src/master-data/validate-master-data.js';
import type { MasterDataDocument } from '../../src/master-data/master-data-document.js';

type Assert = Pick<TAP, 'strictSame' | 'fail'>;
// `any`: test documents are edited freely, deep inside, without a cast at every step.
type Json = Record<string, any>;

/** The example document of master-data.md, verbatim. */
const specExample = (): Json => ({
  company_groups: [
    {
      name: 'Acme Group',
      api_keys: [{ name: 'acme-erp', key: 'acme-demo-key-0001' }],
      notification_emails: ['logistics@acme.example'],
      webhooks: [{ url: 'https://erp.acme.example/hooks/orders', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
      lanes: [
        {
          id: 101,
          supplier: 'Acme Supplier Ltd',
          consignee: 'Globex Consignee GmbH',
          transportation_modes: ['OceanFCL', 'TruckFTL'],
          units: { length: 'cm', weight: 'kg' },
          pallet_types: [{ code: 'EUR', length: 120, width: 80, height: 14.4, weight: 25, max_height: 220, max_weight: 1500 }],
          container_codes: ['20ft', '40ft', '40ft-HC'],
          items: [
            { sku: 'SKU-1001', length: 40, width: 30, height: 25, weight: 9.5 },
            { sku: 'SKU-1002', length: 60, width: 40, height: 30, weight: 14, upright: true },
          ],
        },
      ],
    },
  ],
});

const lane = (overrides: Json = {}): Json => ({ ...structuredClone(specExample().company_groups[0].lanes[0]), ...overrides });
const group = (overrides: Json = {}): Json => ({ ...structuredClone(specExample().company_groups[0]), ...overrides });
/** The example with one change to its only group. */
const withGroup = (overrides: Json): Json => ({ company_groups: [group(overrides)] });
/** The example with one change to its only lane. */
const withLane = (overrides: Json): Json => withGroup({ lanes: [lane(overrides)] });
const laneErrors = (errors: FieldErrors): FieldErrors => ({ company_groups: [{ lanes: [errors] }] });

function refused(t: Assert, body: unknown, expected: FieldErrors): void {
  const result = validateMasterDataDocument(body);
  if (result.ok) return void t.fail(`accepted: ${JSON.stringify(body)}`);
  t.strictSame(result.errors, expected);
}

function accepted(t: Assert, body: unknown): MasterDataDocument {
  const result = validateMasterDataDocument(body);
  if (!result.ok) {
    t.fail(`refused: ${JSON.stringify(result.errors)}`);
    throw new Error('refused');
  }
  return result.value;
}

const REQUIRED = 'This field is required.';
const BLANK = 'This field may not be blank.';
const GT0 = 'Ensure this value is greater than 0.';
const NOT_EMPTY = 'This list may not be empty.';

// ---------------------------------------------------------------- good documents

t.test('the example of master-data.md is accepted, with upright defaulting to false', async (t) => {
  const value = accepted(t, specExample());
  const expected = specExample();
  expected.company_groups[0].lanes[0].items[0].upright = false;
  t.strictSame(value, expected);
});

t.test('notification_emails and webhooks are optional and default to []', async (t) => {
  const body = specExample();
  delete body.company_groups[0].notification_emails;
  delete body.company_groups[0].webhooks;
  const value = accepted(t, body);
  t.strictSame(value.company_groups[0]?.notification_emails, []);
  t.strictSame(value.company_groups[0]?.webhooks, []);
});

t.test('a field the document does not know is refused at every level, named where it stands', async (t) => {
  const body = withLane({ comment: 'main lane', pallet_types: [{ ...lane().pallet_types[0], colour: 'blue' }] });
  body.version = 3;
  body.company_groups[0].lanes[0].items[1].max_load_ontop = 40;
  body.company_groups[0].lanes[0].units.volume = 'm3';
  body.company_groups[0].api_keys[0].scope = 'all';
  body.company_groups[0].webhooks[0].events = ['*'];
  body.company_groups[0].nickname = 'acme';
  refused(t, body, {
    version: ['Unknown field.'],
    company_groups: [
      {
        nickname: ['Unknown field.'],
        api_keys: [{ scope: ['Unknown field.'] }],
        webhooks: [{ events: ['Unknown field.'] }],
        lanes: [
          {
            comment: ['Unknown field.'],
            units: { volume: ['Unknown field.'] },
            pallet_types: [{ colour: ['Unknown field.'] }],
            items: [{}, { max_load_ontop: ['Unknown field.'] }],
          },
        ],
      },
    ],
  });
});

t.test('a misspelt road_profile is refused, never ignored', async (t) => {
  refused(t, withLane({ road_profil: 'EU' }), laneErrors({ road_profil: ['Unknown field.'] }));
});

t.test('an empty document, groups without lanes and lanes without items are accepted', async (t) => {
  accepted(t, { company_groups: [] });
  accepted(t, withGroup({ lanes: [] }));
  accepted(t, withLane({ items: [] }));
});

t.test('the same supplier and consignee may form lanes in different groups; a SKU may be in several lanes', async (t) => {
  accepted(t, {
    company_groups: [
      group(),
      group({ name: 'Other Group', api_keys: [{ name: 'other', key: 'other-demo-key-0001' }], lanes: [lane({ id: 102 })] }),
    ],
  });
});

t.test('the input is not modified', async (t) => {
  const body = specExample();
  const copy = structuredClone(body);
  accepted(t, body);
  t.strictSame(body, copy);
});

// ---------------------------------------------------------------- document and groups

t.test('the document is an object with a list of company_groups', async (t) => {
  refused(t, [], { non_field_errors: ['Expected an object.'] });
  refused(t, {}, { company_groups: [REQUIRED] });
  refused(t, { company_groups: group() }, { company_groups: ['Expected a list, not a single object: wrap it in [ ].'] });
  refused(t, { company_groups: [group(), 'Acme'] }, { company_groups: [{}, { non_field_errors: ['Expected an object.'] }] });
});

t.test('a group name is required and not blank', async (t) => {
  refused(t, withGroup({ name: '' }), { company_groups: [{ name: [BLANK] }] });
  const body = specExample();
  delete body.company_groups[0].name;
  refused(t, body, { company_groups: [{ name: [REQUIRED] }] });
});

t.test('group names are unique', async (t) => {
  refused(
    t,
    { company_groups: [group(), group({ api_keys: [], lanes: [] })] },
    {
      company_groups: [{}, { name: ['Company group "Acme Group" is already defined at company_groups[0]; group names are unique.'] }],
    },
  );
});

for (const field of ['api_keys', 'lanes']) {
  t.test(`${field} is a required list`, async (t) => {
    const body = specExample();
    delete body.company_groups[0][field];
    refused(t, body, { company_groups: [{ [field]: [REQUIRED] }] });
  });
}

// ---------------------------------------------------------------- API keys

t.test('an API key has at least 16 characters: 16 taken, 15 refused', async (t) => {
  accepted(t, withGroup({ api_keys: [{ name: 'k', key: 'k'.repeat(16) }] }));
  refused(t, withGroup({ api_keys: [{ name: 'k', key: 'k'.repeat(15) }] }), {
    company_groups: [{ api_keys: [{ key: ['Ensure this field has at least 16 characters.'] }] }],
  });
});

t.test('an API key is printable ASCII without spaces, as the Authorization header needs', async (t) => {
  refused(t, withGroup({ api_keys: [{ name: 'k', key: 'acme demo key 0001' }] }), {
    company_groups: [{ api_keys: [{ key: ['An API key may contain only printable ASCII characters and no spaces.'] }] }],
  });
});

t.test('an API key name is required and not blank', async (t) => {
  refused(t, withGroup({ api_keys: [{ name: '', key: 'acme-demo-key-0001' }] }), { company_groups: [{ api_keys: [{ name: [BLANK] }] }] });
  refused(t, withGroup({ api_keys: [{ key: 'acme-demo-key-0001' }] }), { company_groups: [{ api_keys: [{ name: [REQUIRED] }] }] });
});

t.test('API keys are unique across the document, and the key is not echoed', async (t) => {
  refused(
    t,
    {
      company_groups: [
        group(),
        group({
          name: 'Other Group',
          api_keys: [
            { name: 'a', key: 'other-demo-key-0001' },
            { name: 'b', key: 'acme-demo-key-0001' },
          ],
          lanes: [],
        }),
      ],
    },
    {
      company_groups: [
        {},
        { api_keys: [{}, { key: ['This key is already given at company_groups[0].api_keys[0]; every API key must be unique.'] }] },
      ],
    },
  );
});

// ---------------------------------------------------------------- e-mails and webhooks

t.test('notification e-mails are valid addresses, named by index', async (t) => {
  refused(t, withGroup({ notification_emails: ['ok@acme.example', 'logistics'] }), {
    company_groups: [{ notification_emails: { 1: ['Enter a valid e-mail address, such as name@example.com.'] } }],
  });
});

t.test('a webhook url is an absolute http or https URL', async (t) => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  accepted(t, withGroup({ webhooks: [{ url: 'http://erp.acme.example:8080/hooks?x=1', secret }] }));
  for (const url of ['ftp://erp.acme.example/hooks', '/hooks/orders', 'erp.acme.example/hooks', 'https://', 'not a url']) {
    refused(t, withGroup({ webhooks: [{ url, secret }] }), {
      company_groups: [
        { webhooks: [{ url: ['Enter an absolute http:// or https:// URL, such as https://erp.example.com/hooks/orders.'] }] },
      ],
    });
  }
});

t.test('a webhook secret is whsec_ + base64 of at least 16 bytes', async (t) => {
  const url = 'https://erp.acme.example/hooks/orders';
  const secretOf = (bytes: number) => `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;
  const bad = {
    company_groups: [
      {
        webhooks: [
          { secret: ['Enter a secret of the form "whsec_" followed by standard base64 (with "=" padding) of at least 16 bytes.'] },
        ],
      },
    ],
  };
  accepted(t, withGroup({ webhooks: [{ url, secret: secretOf(16) }] }));
  accepted(t, withGroup({ webhooks: [{ url, secret: secretOf(17) }] }));
  refused(t, withGroup({ webhooks: [{ url, secret: secretOf(15) }] }), bad);
  refused(t, withGroup({ webhooks: [{ url, secret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }] }), bad);
  refused(t, withGroup({ webhooks: [{ url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS!' }] }), bad);
  refused(t, withGroup({ webhooks: [{ url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS' }] }), bad);
});

// ---------------------------------------------------------------- lanes

t.test('a lane id is a positive integer', async (t) => {
  for (const id of [0, -1]) refused(t, withLane({ id }), laneErrors({ id: ['Ensure this value is greater than or equal to 1.'] }));
  refused(t, withLane({ id: 1.5 }), laneErrors({ id: ['Expected a whole number.'] }));
  refused(t, withLane({ id: '101' }), laneErrors({ id: ['Expected a whole number.'] }));
});

t.test('lane ids are unique across the whole document', async (t) => {
  refused(
    t,
    {
      company_groups: [group(), group({ name: 'Other Group', api_keys: [], lanes: [lane({ supplier: 'Other', id: 101 })] })],
    },
    {
      company_groups: [
        {},
        { lanes: [{ id: ['Lane id 101 is already used at company_groups[0].lanes[0]; lane ids are unique across the document.'] }] },
      ],
    },
  );
});

t.test('supplier and consignee are required and not blank', async (t) => {
  refused(t, withLane({ supplier: '', consignee: '' }), laneErrors({ supplier: [BLANK], consignee: [BLANK] }));
});

t.test('a (supplier, consignee) pair is one lane within a group', async (t) => {
  refused(t, withGroup({ lanes: [lane(), lane({ id: 102 })] }), {
    company_groups: [
      {
        lanes: [
          {},
          {
            non_field_errors: [
              'Supplier "Acme Supplier Ltd" and consignee "Globex Consignee GmbH" already form lanes[0] of this group; a pair identifies one lane.',
            ],
          },
        ],
      },
    ],
  });
});

t.test('transportation_modes is a non-empty list of unique, non-blank names', async (t) => {
  refused(t, withLane({ transportation_modes: [] }), laneErrors({ transportation_modes: [NOT_EMPTY] }));
  refused(
    t,
    withLane({ transportation_modes: ['OceanFCL', 'Air', 'OceanFCL'] }),
    laneErrors({ transportation_modes: { 2: ['Duplicate value "OceanFCL": list each value once.'] } }),
  );
  refused(t, withLane({ transportation_modes: ['OceanFCL', ''] }), laneErrors({ transportation_modes: { 1: [BLANK] } }));
  refused(t, withLane({ transportation_modes: 'OceanFCL' }), laneErrors({ transportation_modes: ['Expected a list.'] }));
});

t.test('units: length mm, cm or in; weight kg or lb', async (t) => {
  accepted(t, withLane({ units: { length: 'in', weight: 'lb' } }));
  accepted(t, withLane({ units: { length: 'mm', weight: 'kg' } }));
  refused(
    t,
    withLane({ units: { length: 'm', weight: 'g' } }),
    laneErrors({
      units: { length: ['"m" is not a valid choice; use one of: mm, cm, in.'], weight: ['"g" is not a valid choice; use one of: kg, lb.'] },
    }),
  );
  refused(t, withLane({ units: 'cm/kg' }), laneErrors({ units: ['Expected an object.'] }));
  refused(t, withLane({ units: { length: 'cm' } }), laneErrors({ units: { weight: [REQUIRED] } }));
});

// ---------------------------------------------------------------- pallet types

const eur = (overrides: Json = {}): Json => ({ ...lane().pallet_types[0], ...overrides });

t.test('pallet_types is not empty', async (t) => refused(t, withLane({ pallet_types: [] }), laneErrors({ pallet_types: [NOT_EMPTY] })));

t.test('pallet type codes are unique within the lane', async (t) => {
  refused(
    t,
    withLane({ pallet_types: [eur(), eur({ code: 'IND' }), eur()] }),
    laneErrors({
      pallet_types: [{}, {}, { code: ['Pallet type code "EUR" is already used at pallet_types[0] of this lane.'] }],
    }),
  );
});

for (const field of ['length', 'width', 'height', 'weight', 'max_height', 'max_weight']) {
  t.test(`pallet type ${field} is a number > 0`, async (t) => {
    refused(t, withLane({ pallet_types: [eur({ [field]: 0 })] }), laneErrors({ pallet_types: [{ [field]: [GT0] }] }));
    refused(t, withLane({ pallet_types: [eur({ [field]: '120' })] }), laneErrors({ pallet_types: [{ [field]: ['Expected a number.'] }] }));
  });
}

t.test('max_height is greater than the pallet height', async (t) => {
  refused(
    t,
    withLane({ pallet_types: [eur({ height: 14.4, max_height: 14.4 })] }),
    laneErrors({
      pallet_types: [
        { max_height: ["Ensure max_height is greater than the empty pallet's height (14.4); it is the loaded pallet's total height."] },
      ],
    }),
  );
  accepted(t, withLane({ pallet_types: [eur({ height: 14.4, max_height: 14.5 })] }));
});

t.test('max_weight is greater than the pallet weight', async (t) => {
  refused(
    t,
    withLane({ pallet_types: [eur({ weight: 25, max_weight: 20 })] }),
    laneErrors({
      pallet_types: [
        { max_weight: ["Ensure max_weight is greater than the empty pallet's weight (25); it is the loaded pallet's total weight."] },
      ],
    }),
  );
});

// ---------------------------------------------------------------- container codes

t.test('container_codes is a non-empty list of unique known codes', async (t) => {
  refused(t, withLane({ container_codes: [] }), laneErrors({ container_codes: [NOT_EMPTY] }));
  refused(
    t,
    withLane({ container_codes: ['40ft', '53ft'] }),
    laneErrors({
      container_codes: {
        1: ['"53ft" is not a valid choice; use one of: 20ft, 40ft, 40ft-HC, 45ft-HC, 20ft-RF, 40ft-HC RF, 20ft-OT, 40ft-OT.'],
      },
    }),
  );
  refused(
    t,
    withLane({ container_codes: ['40ft', '20ft', '40ft'] }),
    laneErrors({ container_codes: { 2: ['Duplicate value "40ft": list each value once.'] } }),
  );
});

// ---------------------------------------------------------------- items

const sku = (overrides: Json = {}): Json => ({ sku: 'SKU-1', length: 10, width: 10, height: 10, weight: 1, ...overrides });

t.test('an item sku is required, not blank and unique within the lane', async (t) => {
  refused(t, withLane({ items: [sku({ sku: '' })] }), laneErrors({ items: [{ sku: [BLANK] }] }));
  refused(
    t,
    withLane({ items: [sku(), sku({ sku: 'SKU-2' }), sku()] }),
    laneErrors({ items: [{}, {}, { sku: ['SKU "SKU-1" is already defined at items[0] of this lane.'] }] }),
  );
});

for (const field of ['length', 'width', 'height', 'weight']) {
  t.test(`item ${field} is required and > 0`, async (t) => {
    refused(t, withLane({ items: [sku(), sku({ sku: 'SKU-2', [field]: 0 })] }), laneErrors({ items: [{}, { [field]: [GT0] }] }));
    refused(t, withLane({ items: [sku({ [field]: undefined })] }), laneErrors({ items: [{ [field]: [REQUIRED] }] }));
  });
}

t.test('item upright is a boolean', async (t) =>
  refused(t, withLane({ items: [sku({ upright: 'yes' })] }), laneErrors({ items: [{ upright: ['Expected true or false.'] }] })),
);

t.test('errors deep in the document nest by index with {} for the good elements', async (t) => {
  refused(t, withGroup({ lanes: [lane(), lane({ id: 102, consignee: 'Initech', items: [sku({ weight: -2 })] })] }), {
    company_groups: [{ lanes: [{}, { items: [{ weight: [GT0] }] }] }],
  });
});

t.test('every error of a document is reported at once', async (t) => {
  refused(
    t,
    {
      company_groups: [
        group({ notification_emails: ['x'], lanes: [lane({ units: { length: 'yd', weight: 'kg' }, items: [sku({ height: 0 })] })] }),
        group({ api_keys: [{ name: 'short', key: 'short' }], lanes: [lane({ consignee: 'Initech' })] }),
      ],
    },
    {
      company_groups: [
        {
          notification_emails: { 0: ['Enter a valid e-mail address, such as name@example.com.'] },
          lanes: [{ units: { length: ['"yd" is not a valid choice; use one of: mm, cm, in.'] }, items: [{ height: [GT0] }] }],
        },
        {
          api_keys: [{ key: ['Ensure this field has at least 16 characters.'] }],
          name: ['Company group "Acme Group" is already defined at company_groups[0]; group names are unique.'],
          lanes: [{ id: ['Lane id 101 is already used at company_groups[0].lanes[0]; lane ids are unique across the document.'] }],
        },
      ],
    },
  );
});

t.test('consolidation_window_seconds: absent or a whole number of seconds from 1 to 604,800', async (t) => {
  t.equal(accepted(t, specExample()).company_groups[0]!.lanes[0]!.consolidation_window_seconds, undefined, 'absent: no consolidation');
  t.equal(accepted(t, withLane({ consolidation_window_seconds: 1 })).company_groups[0]!.lanes[0]!.consolidation_window_seconds, 1);
  t.equal(
    accepted(t, withLane({ consolidation_window_seconds: 604_800 })).company_groups[0]!.lanes[0]!.consolidation_window_seconds,
    604_800,
  );
  for (const bad of [0, -5, 604_801, 2.5, '60', null, true]) {
    const result = validateMasterDataDocument(withLane({ consolidation_window_seconds: bad }));
    t.notOk(result.ok, `${JSON.stringify(bad)} is refused`);
    if (!result.ok)
      t.match(
        result.errors,
        { company_groups: [{ lanes: [{ consolidation_window_seconds: [String] }] }] },
        `${JSON.stringify(bad)}: the error names the field`,
      );
  }
});
