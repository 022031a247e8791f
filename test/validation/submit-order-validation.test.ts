// validateSubmitOrder: one test per rule and limit of spec 2.3-2.8 and 8 that needs no master data.
// Each bad case changes one thing in a valid order and asserts the WHOLE error body, so the field,
// its nesting and the absence of any other error are all checked.
import t, { type TAP } from 'tap';
import type { FieldErrors } from '../../src/validation/field-errors.js';
import { validateSubmitOrder } from '../../src/orders/validate-submit-order.js';
import type { SubmitOrderPayload } from '../../src/orders/submit-order-payload.js';
import { normalizedAcmeOrder } from '../support/seed.js';

type Body = Record<string, unknown>;
type Assert = Pick<TAP, 'strictSame' | 'fail'>;

const order = (overrides: Body = {}): Body => ({
  supplier_name: 'Acme Supplier Ltd',
  consignee_name: 'Globex Consignee GmbH',
  reference: 'PO-1',
  transportation_mode: 'OceanFCL',
  order_items: [{ item: 'SKU-1001', quantity: '10' }],
  order_containers: [{ code: '40ft' }],
  ...overrides,
});
const without = (field: string): Body => {
  const body = order();
  delete body[field];
  return body;
};
const item = (overrides: Body = {}): Body => ({ item: 'SKU-1001', quantity: 5, ...overrides });
const preBuilt = (overrides: Body = {}): Body => ({
  name: 'P1',
  length: '120',
  width: '80',
  height: '150',
  weight: '400',
  count: 2,
  ...overrides,
});
const looseBox = (overrides: Body = {}): Body => ({ name: 'B1', length: 40, width: 30, height: 20, weight: 5, count: 3, ...overrides });
const withPreBuilt = (overrides: Body) => order({ pre_builts: [preBuilt(), preBuilt(overrides)] });
const withLooseBox = (overrides: Body) => order({ loose_boxes: [looseBox(overrides)] });

const REQUIRED = 'This field is required.';
const BLANK = 'This field may not be blank.';
const UNKNOWN = 'Unknown field.';
const NO_AMP = 'Must not contain "&" or ",".';
const MAX64 = 'Ensure this field has no more than 64 characters.';
const MIN1 = 'Ensure this value is greater than or equal to 1.';
const GT0 = 'Ensure this value is greater than 0.';
const WHOLE = 'Expected a whole number.';
const BOOLEAN = 'Expected true or false.';
const DECIMALS = 'Ensure that there are no more than 6 decimal places.';
const DIMENSION_DIGITS =
  'Ensure that there are no more than 6 digits before the decimal point (at most 12 digits in total, 6 of them decimals).';
const WEIGHT_DIGITS =
  'Ensure that there are no more than 9 digits before the decimal point (at most 15 digits in total, 6 of them decimals).';
const SYNTAX =
  'Enter a plain decimal number such as "120.5" or 120.5: digits with an optional "." and decimals; no "+", spaces, exponent or hex.';
const EMAIL = 'Enter a valid e-mail address, such as name@example.com.';
const NO_CARGO =
  'Send at least one non-empty list of cargo: order_items (or shipment_skus), pre_builts (or pallets) or loose_boxes (or boxes).';
const ROTATIONS_XYZ = 'send rotation_x, rotation_y and rotation_z together.';

function refused(t: Assert, body: unknown, expected: FieldErrors): void {
  const result = validateSubmitOrder(body);
  if (result.ok) {
    t.fail(`accepted: ${JSON.stringify(body)}`);
    return;
  }
  t.strictSame(result.errors, expected);
}

function accepted(t: Assert, body: unknown): SubmitOrderPayload {
  const result = validateSubmitOrder(body);
  if (!result.ok) {
    t.fail(`refused: ${JSON.stringify(result.errors)}`);
    throw new Error('refused');
  }
  return result.value;
}

// ---------------------------------------------------------------- good input, normalized

t.test('a minimal order comes back with every default filled in', async (t) => {
  t.strictSame(accepted(t, order()), normalizedAcmeOrder());
});

t.test('pre-built pallet defaults: no items, not stackable, rotation_x true', async (t) => {
  const value = accepted(
    t,
    order({ order_items: undefined, pre_builts: [preBuilt({ length: 120.5, width: '80', height: '14.4', weight: 12 })] }),
  );
  t.strictSame(value.pre_builts, [
    {
      name: 'P1',
      length: '120.500000',
      width: '80.000000',
      height: '14.400000',
      weight: '12.000000',
      count: 2,
      prebuiltitem_set: [],
      double_stacked_bottom: false,
      double_stacked_top: false,
      rotation_x: true,
    },
  ]);
});

t.test('pre-built item defaults: empty strings and packages null', async (t) => {
  const value = accepted(
    t,
    withPreBuilt({
      prebuiltitem_set: [
        { quantity: 3 },
        { quantity: 1, packages: 2, purchase_order: 'PO-9', line_item_number: '7' },
        { quantity: 1, packages: null },
      ],
    }),
  );
  t.strictSame(value.pre_builts[1]?.prebuiltitem_set, [
    { purchase_order: '', line_item_number: '', quantity: 3, packages: null },
    { purchase_order: 'PO-9', line_item_number: '7', quantity: 1, packages: 2 },
    { purchase_order: '', line_item_number: '', quantity: 1, packages: null },
  ]);
});

t.test('loose box defaults: rotations true, product counts null, strings empty', async (t) => {
  const value = accepted(t, withLooseBox({}));
  t.strictSame(value.loose_boxes, [
    {
      name: 'B1',
      length: '40.000000',
      width: '30.000000',
      height: '20.000000',
      weight: '5.000000',
      count: 3,
      purchase_order: '',
      line_item_number: '',
      product_quantity: null,
      product_packages: null,
      double_stacked_bottom: false,
      double_stacked_top: false,
      rotation_x: true,
      rotation_y: true,
      rotation_z: true,
    },
  ]);
});

t.test('values given are kept: flags, counts, notes, recipients', async (t) => {
  const value = accepted(
    t,
    order({
      shipment_type: 'dangerous_goods',
      order_items: [item({ purchase_order: 'PO-1', line_item_number: '10', notes: 'fragile' })],
      loose_boxes: [
        looseBox({
          rotation_x: false,
          rotation_y: false,
          rotation_z: false,
          double_stacked_bottom: true,
          double_stacked_top: true,
          product_quantity: 12,
          product_packages: null,
        }),
      ],
      pre_builts: [preBuilt({ rotation_x: false, double_stacked_top: true })],
      order_containers: [{ code: '20ft', count: 1 }, { code: '40ft-HC RF' }],
      customer_notes: 'Call before delivery',
      send_email: false,
      extra_recipients: ['ops@globex.example'],
      extra_cc_recipients: ['cc@globex.example', 'x@münchen.de'],
    }),
  );
  t.equal(value.shipment_type, 'dangerous_goods');
  t.strictSame(value.order_items, [
    { item: 'SKU-1001', quantity: '5.000000', purchase_order: 'PO-1', line_item_number: '10', notes: 'fragile' },
  ]);
  t.match(value.loose_boxes[0], {
    rotation_x: false,
    rotation_y: false,
    rotation_z: false,
    double_stacked_bottom: true,
    double_stacked_top: true,
    product_quantity: 12,
    product_packages: null,
  });
  t.match(value.pre_builts[0], { rotation_x: false, double_stacked_top: true, double_stacked_bottom: false });
  t.strictSame(
    value.order_containers,
    [
      { code: '20ft', count: 1, exact: true },
      { code: '40ft-HC RF', count: 5 },
    ],
    'a count given is booked exactly (spec 2.8); none given, up to 5',
  );
  t.equal(value.customer_notes, 'Call before delivery');
  t.equal(value.send_email, false);
  t.strictSame(value.extra_recipients, ['ops@globex.example']);
  t.strictSame(value.extra_cc_recipients, ['cc@globex.example', 'x@münchen.de']);
});

t.test('aliases shipment_skus, pallets and boxes arrive under their canonical names', async (t) => {
  const value = accepted(t, order({ order_items: undefined, shipment_skus: [item()], pallets: [preBuilt()], boxes: [looseBox()] }));
  t.equal(value.order_items.length, 1);
  t.equal(value.pre_builts.length, 1);
  t.equal(value.loose_boxes.length, 1);
  t.notOk('shipment_skus' in value || 'pallets' in value || 'boxes' in value, 'aliases are input only');
});

t.test('decimals are normalized to six decimals, from strings and numbers', async (t) => {
  const value = accepted(
    t,
    order({
      order_items: [item({ quantity: '120.5' }), item({ quantity: 12 }), item({ quantity: 0.1 }), item({ quantity: '007.25' })],
    }),
  );
  t.strictSame(
    value.order_items.map((line) => line.quantity),
    ['120.500000', '12.000000', '0.100000', '7.250000'],
  );
});

t.test('limits hold at their boundary: 64 characters, 0.01, 12 and 15 digits, 6 decimals', async (t) => {
  const value = accepted(
    t,
    order({
      reference: 'R'.repeat(64),
      order_items: [item({ quantity: 0.01, purchase_order: 'P'.repeat(64), line_item_number: 'L'.repeat(64) })],
      pre_builts: [preBuilt({ name: 'N'.repeat(64), length: '123456.123456', width: 999999.999999, weight: '123456789.123456' })],
      loose_boxes: [looseBox({ name: 'B'.repeat(64), height: '0.000001', weight: 123456789.123456 })],
    }),
  );
  t.equal(value.order_items[0]?.quantity, '0.010000');
  t.equal(value.pre_builts[0]?.length, '123456.123456');
  t.equal(value.pre_builts[0]?.width, '999999.999999');
  t.equal(value.pre_builts[0]?.weight, '123456789.123456');
  t.equal(value.loose_boxes[0]?.height, '0.000001');
  t.equal(value.loose_boxes[0]?.weight, '123456789.123456');
});

t.test('every container code of spec 2.8 is accepted', async (t) => {
  const codes = ['20ft', '40ft', '40ft-HC', '45ft-HC', '20ft-RF', '40ft-HC RF', '20ft-OT', '40ft-OT'];
  const value = accepted(t, order({ order_containers: codes.map((code) => ({ code })) }));
  t.strictSame(
    value.order_containers.map((container) => container.code),
    codes,
  );
});

t.test('TruckFTL and cargo of one kind only (pre-builts or loose boxes) are accepted', async (t) => {
  accepted(t, order({ transportation_mode: 'TruckFTL', order_items: [], pre_builts: [preBuilt()] }));
  accepted(t, order({ order_items: undefined, loose_boxes: [looseBox()] }));
});

t.test('customer_notes may be null; prebuiltitem_set may be empty', async (t) => {
  const value = accepted(t, order({ customer_notes: null, pre_builts: [preBuilt({ prebuiltitem_set: [] })] }));
  t.equal(value.customer_notes, null);
  t.strictSame(value.pre_builts[0]?.prebuiltitem_set, []);
});

t.test('the input is not modified', async (t) => {
  const body = order({ shipment_skus: [item()], order_items: undefined, loose_boxes: [looseBox()] });
  const copy = structuredClone(body);
  accepted(t, body);
  t.strictSame(body, copy);
});

// ---------------------------------------------------------------- the body and the top level

t.test('a body that is not an object', async (t) => {
  for (const body of [null, [], 'order', 42]) refused(t, body, { non_field_errors: ['Expected an object.'] });
});

for (const field of ['supplier_name', 'consignee_name', 'reference', 'transportation_mode', 'order_containers']) {
  t.test(`${field} is required`, async (t) => refused(t, without(field), { [field]: [REQUIRED] }));
}

t.test('supplier_name and consignee_name may not be blank', async (t) => {
  refused(t, order({ supplier_name: '', consignee_name: '' }), { supplier_name: [BLANK], consignee_name: [BLANK] });
});

t.test('reference may not be blank or white space only', async (t) => {
  refused(t, order({ reference: '' }), { reference: [BLANK] });
  refused(t, order({ reference: '   ' }), { reference: [BLANK] });
});

t.test('reference: 64 characters are taken, 65 are refused', async (t) => {
  accepted(t, order({ reference: 'R'.repeat(64) }));
  refused(t, order({ reference: 'R'.repeat(65) }), { reference: [MAX64] });
});

t.test('reference must be a string', async (t) => refused(t, order({ reference: 12345 }), { reference: ['Expected a string.'] }));

t.test('transportation_mode is OceanFCL or TruckFTL, case-sensitive', async (t) => {
  refused(t, order({ transportation_mode: 'Air' }), {
    transportation_mode: ['"Air" is not a valid choice; use one of: OceanFCL, TruckFTL.'],
  });
  refused(t, order({ transportation_mode: 'oceanfcl' }), {
    transportation_mode: ['"oceanfcl" is not a valid choice; use one of: OceanFCL, TruckFTL.'],
  });
});

t.test('shipment_type is one of normal, dangerous_goods, dedicated_container', async (t) => {
  accepted(t, order({ shipment_type: 'dedicated_container' }));
  refused(t, order({ shipment_type: 'express' }), {
    shipment_type: ['"express" is not a valid choice; use one of: normal, dangerous_goods, dedicated_container.'],
  });
});

t.test('unknown fields are refused, not dropped', async (t) => refused(t, order({ refrence: 'typo' }), { refrence: [UNKNOWN] }));

t.test('fields named __proto__ or constructor are unknown fields like any other, and pollute nothing', async (t) => {
  // Compared as JSON text: an own "__proto__" key is exactly what deep-equality helpers stumble on.
  const body = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}') as Body;
  const top = validateSubmitOrder({ ...order(), ...body });
  t.equal(JSON.stringify(top.ok ? null : top.errors), '{"__proto__":["Unknown field."],"constructor":["Unknown field."]}');
  const nested = validateSubmitOrder(order({ order_items: [{ ...item(), ...body }] }));
  t.equal(
    JSON.stringify(nested.ok ? null : nested.errors),
    '{"order_items":[{"__proto__":["Unknown field."],"constructor":["Unknown field."]}]}',
  );
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  t.equal(({} as Record<string, unknown>).non_field_errors, undefined);
});

t.test('a long bad value is shortened in the message', async (t) => {
  refused(t, order({ transportation_mode: 'X'.repeat(1000) }), {
    transportation_mode: [`"${'X'.repeat(76)}... is not a valid choice; use one of: OceanFCL, TruckFTL.`],
  });
});

t.test('customer_notes is a string or null', async (t) =>
  refused(t, order({ customer_notes: 5 }), { customer_notes: ['Expected a string or null.'] }),
);

t.test('send_email is a boolean', async (t) => refused(t, order({ send_email: 'yes' }), { send_email: [BOOLEAN] }));

// ---------------------------------------------------------------- aliases and cargo

for (const [alias, canonical, element] of [
  ['shipment_skus', 'order_items', item()],
  ['pallets', 'pre_builts', preBuilt()],
  ['boxes', 'loose_boxes', looseBox()],
] as const) {
  t.test(`${canonical} and its alias ${alias} together are refused, naming the alias`, async (t) => {
    refused(t, order({ [canonical]: [element], [alias]: [element] }), {
      [alias]: [`Send either ${canonical} or its alias ${alias}, not both.`],
    });
  });
}

t.test('errors inside an alias are reported under the alias', async (t) => {
  refused(t, order({ order_items: undefined, shipment_skus: [item(), item({ quantity: 0 })] }), {
    shipment_skus: [{}, { quantity: ['Ensure this value is greater than or equal to 0.01.'] }],
  });
  refused(t, order({ pallets: [preBuilt({ count: 0 })] }), { pallets: [{ count: [MIN1] }] });
  refused(t, order({ boxes: [looseBox({ shipment_type: 'normal' })] }), {
    boxes: [{ shipment_type: ['shipment_type belongs at the top level of the order, not inside boxes elements.'] }],
  });
});

t.test('at least one kind of cargo', async (t) => refused(t, without('order_items'), { non_field_errors: [NO_CARGO] }));

t.test('empty cargo lists are no cargo', async (t) => {
  refused(t, order({ order_items: [], pre_builts: [], loose_boxes: [] }), { non_field_errors: [NO_CARGO] });
  refused(t, order({ order_items: undefined, shipment_skus: [] }), { non_field_errors: [NO_CARGO] });
});

t.test('a cargo field that is not a list gets its own message and no cargo message', async (t) => {
  refused(t, order({ order_items: { item: 'SKU-1001', quantity: 1 } }), {
    order_items: ['Expected a list, not a single object: wrap it in [ ].'],
  });
  refused(t, order({ order_items: 'SKU-1001' }), { order_items: ['Expected a list.'] });
});

// ---------------------------------------------------------------- order_containers

t.test('order_containers is a list, never a single object', async (t) => {
  refused(t, order({ order_containers: { code: '40ft' } }), {
    order_containers: ['Expected a list, not a single object: wrap it in [ ].'],
  });
});

t.test('order_containers may not be empty', async (t) =>
  refused(t, order({ order_containers: [] }), { order_containers: ['This list may not be empty.'] }),
);

t.test('container code must be one of the eight', async (t) => {
  refused(t, order({ order_containers: [{ code: '40ft' }, { code: '10ft' }] }), {
    order_containers: [
      {},
      { code: ['"10ft" is not a valid choice; use one of: 20ft, 40ft, 40ft-HC, 45ft-HC, 20ft-RF, 40ft-HC RF, 20ft-OT, 40ft-OT.'] },
    ],
  });
});

t.test('container code is required', async (t) =>
  refused(t, order({ order_containers: [{ count: 2 }] }), { order_containers: [{ code: [REQUIRED] }] }),
);

t.test('a container code may not repeat; the error is on each repeat', async (t) => {
  const repeated = (code: string) => `Container code "${code}" is listed more than once; list each code once, with its count.`;
  refused(t, order({ order_containers: [{ code: '40ft' }, { code: '20ft' }, { code: '40ft', count: 1 }, { code: '40ft' }] }), {
    order_containers: [{}, {}, { code: [repeated('40ft')] }, { code: [repeated('40ft')] }],
  });
});

t.test('container count is an integer of at least 1', async (t) => {
  accepted(t, order({ order_containers: [{ code: '40ft', count: 1 }] }));
  refused(t, order({ order_containers: [{ code: '40ft', count: 0 }] }), { order_containers: [{ count: [MIN1] }] });
  refused(t, order({ order_containers: [{ code: '40ft', count: 1.5 }] }), { order_containers: [{ count: [WHOLE] }] });
  refused(t, order({ order_containers: [{ code: '40ft', count: '5' }] }), { order_containers: [{ count: [WHOLE] }] });
});

t.test('unknown fields in a container are refused', async (t) =>
  refused(t, order({ order_containers: [{ code: '40ft', qty: 2 }] }), { order_containers: [{ qty: [UNKNOWN] }] }),
);

// ---------------------------------------------------------------- order_items

t.test('an order item must be an object', async (t) => {
  refused(t, order({ order_items: [item(), 'SKU-1001'] }), { order_items: [{}, { non_field_errors: ['Expected an object.'] }] });
});

t.test('order item needs a non-blank item', async (t) => {
  refused(t, order({ order_items: [item(), { quantity: 1 }] }), { order_items: [{}, { item: [REQUIRED] }] });
  refused(t, order({ order_items: [item({ item: '' })] }), { order_items: [{ item: [BLANK] }] });
});

t.test('order item needs a quantity', async (t) =>
  refused(t, order({ order_items: [{ item: 'SKU-1001' }] }), { order_items: [{ quantity: [REQUIRED] }] }),
);

t.test('order item quantity: 0.01 is taken, 0.009 is refused', async (t) => {
  accepted(t, order({ order_items: [item({ quantity: 0.01 })] }));
  accepted(t, order({ order_items: [item({ quantity: '0.01' })] }));
  refused(t, order({ order_items: [item(), item({ quantity: 0.009 })] }), {
    order_items: [{}, { quantity: ['Ensure this value is greater than or equal to 0.01.'] }],
  });
  refused(t, order({ order_items: [item({ quantity: '0.009' })] }), {
    order_items: [{ quantity: ['Ensure this value is greater than or equal to 0.01.'] }],
  });
  refused(t, order({ order_items: [item({ quantity: -3 })] }), {
    order_items: [{ quantity: ['Ensure this value is greater than or equal to 0.01.'] }],
  });
});

t.test('order item quantity has at most 6 decimals', async (t) => {
  refused(t, order({ order_items: [item({ quantity: '1.1234567' })] }), { order_items: [{ quantity: [DECIMALS] }] });
});

t.test('order item quantity is a number or a decimal string', async (t) => {
  refused(t, order({ order_items: [item({ quantity: 'ten' })] }), { order_items: [{ quantity: [SYNTAX] }] });
  refused(t, order({ order_items: [item({ quantity: true })] }), {
    order_items: [{ quantity: ['Expected a decimal number, as a string such as "120.5" or a JSON number.'] }],
  });
});

for (const field of ['purchase_order', 'line_item_number']) {
  t.test(`order item ${field}: 64 characters, no "&", no ","`, async (t) => {
    accepted(t, order({ order_items: [item({ [field]: 'P'.repeat(64) })] }));
    refused(t, order({ order_items: [item({ [field]: 'P'.repeat(65) })] }), { order_items: [{ [field]: [MAX64] }] });
    refused(t, order({ order_items: [item({ [field]: 'PO&1' })] }), { order_items: [{ [field]: [NO_AMP] }] });
    refused(t, order({ order_items: [item({ [field]: 'PO,1' })] }), { order_items: [{ [field]: [NO_AMP] }] });
    refused(t, order({ order_items: [item({ [field]: null })] }), { order_items: [{ [field]: ['Expected a string.'] }] });
  });
}

t.test('order item notes is a string', async (t) =>
  refused(t, order({ order_items: [item({ notes: 1 })] }), { order_items: [{ notes: ['Expected a string.'] }] }),
);

t.test('unknown fields in an order item are refused', async (t) =>
  refused(t, order({ order_items: [item({ qty: 1 })] }), { order_items: [{ qty: [UNKNOWN] }] }),
);

// ---------------------------------------------------------------- pre_builts

t.test('pre-built name: required, not blank, 64 characters taken, 65 refused', async (t) => {
  refused(t, withPreBuilt({ name: undefined }), { pre_builts: [{}, { name: [REQUIRED] }] });
  refused(t, withPreBuilt({ name: '' }), { pre_builts: [{}, { name: [BLANK] }] });
  accepted(t, withPreBuilt({ name: 'N'.repeat(64) }));
  refused(t, withPreBuilt({ name: 'N'.repeat(65) }), { pre_builts: [{}, { name: [MAX64] }] });
});

for (const field of ['length', 'width', 'height', 'weight', 'count']) {
  t.test(`pre-built ${field} is required`, async (t) =>
    refused(t, withPreBuilt({ [field]: undefined }), { pre_builts: [{}, { [field]: [REQUIRED] }] }),
  );
}

for (const field of ['length', 'width', 'height']) {
  t.test(`pre-built ${field}: > 0, 12 digits taken and 13 refused, 6 decimals taken and 7 refused`, async (t) => {
    refused(t, withPreBuilt({ [field]: '0' }), { pre_builts: [{}, { [field]: [GT0] }] });
    refused(t, withPreBuilt({ [field]: -5 }), { pre_builts: [{}, { [field]: [GT0] }] });
    accepted(t, withPreBuilt({ [field]: '123456.123456' }));
    refused(t, withPreBuilt({ [field]: '1234567.123456' }), { pre_builts: [{}, { [field]: [DIMENSION_DIGITS] }] });
    refused(t, withPreBuilt({ [field]: 1234567 }), { pre_builts: [{}, { [field]: [DIMENSION_DIGITS] }] });
    accepted(t, withPreBuilt({ [field]: 1.123456 }));
    refused(t, withPreBuilt({ [field]: '1.1234567' }), { pre_builts: [{}, { [field]: [DECIMALS] }] });
    refused(t, withPreBuilt({ [field]: 1.1234567 }), { pre_builts: [{}, { [field]: [DECIMALS] }] });
  });
}

t.test('pre-built weight: > 0, 15 digits taken and 16 refused, 6 decimals taken and 7 refused', async (t) => {
  refused(t, withPreBuilt({ weight: -1 }), { pre_builts: [{}, { weight: [GT0] }] });
  accepted(t, withPreBuilt({ weight: '123456789.123456' }));
  refused(t, withPreBuilt({ weight: '1234567890.123456' }), { pre_builts: [{}, { weight: [WEIGHT_DIGITS] }] });
  refused(t, withPreBuilt({ weight: '1.1234567' }), { pre_builts: [{}, { weight: [DECIMALS] }] });
});

t.test('decimals refuse "+", white space, hex and exponents; numbers refuse what needs an exponent', async (t) => {
  for (const bad of ['+120', ' 120', '120 ', '0x78', '1.2e2', '12,5']) {
    refused(t, withPreBuilt({ length: bad }), { pre_builts: [{}, { length: [SYNTAX] }] });
  }
  refused(t, withPreBuilt({ length: 1e-7 }), { pre_builts: [{}, { length: [DECIMALS] }] });
  refused(t, withPreBuilt({ weight: 1e21 }), { pre_builts: [{}, { weight: [WEIGHT_DIGITS] }] });
});

t.test('a decimal of the wrong type says what is expected', async (t) => {
  refused(t, withPreBuilt({ height: null }), {
    pre_builts: [{}, { height: ['Expected a decimal number, as a string such as "120.5" or a JSON number.'] }],
  });
});

t.test('pre-built count is an integer of at least 1', async (t) => {
  refused(t, withPreBuilt({ count: 0 }), { pre_builts: [{}, { count: [MIN1] }] });
  refused(t, withPreBuilt({ count: 2.5 }), { pre_builts: [{}, { count: [WHOLE] }] });
});

t.test('shipment_type is refused inside pre_builts, saying where it belongs', async (t) => {
  refused(t, withPreBuilt({ shipment_type: 'normal' }), {
    pre_builts: [{}, { shipment_type: ['shipment_type belongs at the top level of the order, not inside pre_builts elements.'] }],
  });
});

t.test('unknown fields in a pre-built are refused', async (t) =>
  refused(t, withPreBuilt({ rotation_y: true }), { pre_builts: [{}, { rotation_y: [UNKNOWN] }] }),
);

t.test('pre-built flags are booleans', async (t) => {
  refused(t, withPreBuilt({ double_stacked_bottom: 'yes', double_stacked_top: 1, rotation_x: null }), {
    pre_builts: [{}, { double_stacked_bottom: [BOOLEAN], double_stacked_top: [BOOLEAN], rotation_x: [BOOLEAN] }],
  });
});

t.test('prebuiltitem_set is a list of objects', async (t) => {
  refused(t, withPreBuilt({ prebuiltitem_set: { quantity: 1 } }), {
    pre_builts: [{}, { prebuiltitem_set: ['Expected a list, not a single object: wrap it in [ ].'] }],
  });
  refused(t, withPreBuilt({ prebuiltitem_set: [{ quantity: 1 }, 7] }), {
    pre_builts: [{}, { prebuiltitem_set: [{}, { non_field_errors: ['Expected an object.'] }] }],
  });
});

t.test('pre-built item quantity is required, an integer of at least 1', async (t) => {
  refused(t, withPreBuilt({ prebuiltitem_set: [{ packages: 2 }] }), { pre_builts: [{}, { prebuiltitem_set: [{ quantity: [REQUIRED] }] }] });
  refused(t, withPreBuilt({ prebuiltitem_set: [{ quantity: 1 }, { quantity: 0 }] }), {
    pre_builts: [{}, { prebuiltitem_set: [{}, { quantity: [MIN1] }] }],
  });
  refused(t, withPreBuilt({ prebuiltitem_set: [{ quantity: 1.5 }] }), { pre_builts: [{}, { prebuiltitem_set: [{ quantity: [WHOLE] }] }] });
});

t.test('pre-built item packages is an integer of at least 1 when set', async (t) => {
  refused(t, withPreBuilt({ prebuiltitem_set: [{ quantity: 3, packages: 0 }] }), {
    pre_builts: [{}, { prebuiltitem_set: [{ packages: [MIN1] }] }],
  });
  refused(t, withPreBuilt({ prebuiltitem_set: [{ quantity: 3, packages: '2' }] }), {
    pre_builts: [{}, { prebuiltitem_set: [{ packages: ['Expected a whole number or null.'] }] }],
  });
});

for (const field of ['purchase_order', 'line_item_number']) {
  t.test(`pre-built item ${field}: 64 characters, no "&", no ","`, async (t) => {
    accepted(t, withPreBuilt({ prebuiltitem_set: [{ quantity: 1, [field]: 'X'.repeat(64) }] }));
    refused(t, withPreBuilt({ prebuiltitem_set: [{ quantity: 1, [field]: 'X'.repeat(65) }] }), {
      pre_builts: [{}, { prebuiltitem_set: [{ [field]: [MAX64] }] }],
    });
    refused(t, withPreBuilt({ prebuiltitem_set: [{ quantity: 1, [field]: 'a&b' }] }), {
      pre_builts: [{}, { prebuiltitem_set: [{ [field]: [NO_AMP] }] }],
    });
    refused(t, withPreBuilt({ prebuiltitem_set: [{ quantity: 1, [field]: 'a,b' }] }), {
      pre_builts: [{}, { prebuiltitem_set: [{ [field]: [NO_AMP] }] }],
    });
  });
}

t.test('unknown fields in a pre-built item are refused', async (t) => {
  refused(t, withPreBuilt({ prebuiltitem_set: [{ quantity: 1, sku: 'SKU-1' }] }), {
    pre_builts: [{}, { prebuiltitem_set: [{ sku: [UNKNOWN] }] }],
  });
});

// ---------------------------------------------------------------- loose_boxes

t.test('loose box name: required, 64 characters taken, 65 refused', async (t) => {
  refused(t, withLooseBox({ name: undefined }), { loose_boxes: [{ name: [REQUIRED] }] });
  refused(t, withLooseBox({ name: 'B'.repeat(65) }), { loose_boxes: [{ name: [MAX64] }] });
});

t.test('loose box dimensions and weight follow the pre-built limits', async (t) => {
  refused(t, withLooseBox({ length: 0, width: '1234567', height: '0.0000001', weight: '1234567890' }), {
    loose_boxes: [{ length: [GT0], width: [DIMENSION_DIGITS], height: [DECIMALS], weight: [WEIGHT_DIGITS] }],
  });
  refused(t, withLooseBox({ weight: '1.0000001' }), { loose_boxes: [{ weight: [DECIMALS] }] });
});

t.test('loose box count is an integer of at least 1', async (t) =>
  refused(t, withLooseBox({ count: 0 }), { loose_boxes: [{ count: [MIN1] }] }),
);

for (const field of ['product_quantity', 'product_packages']) {
  t.test(`loose box ${field} is an integer of at least 1 when set, null when not`, async (t) => {
    accepted(t, withLooseBox({ [field]: 1 }));
    accepted(t, withLooseBox({ [field]: null }));
    refused(t, withLooseBox({ [field]: 0 }), { loose_boxes: [{ [field]: [MIN1] }] });
    refused(t, withLooseBox({ [field]: 1.5 }), { loose_boxes: [{ [field]: ['Expected a whole number or null.'] }] });
  });
}

for (const field of ['purchase_order', 'line_item_number']) {
  t.test(`loose box ${field}: 64 characters, no "&", no ","`, async (t) => {
    accepted(t, withLooseBox({ [field]: 'X'.repeat(64) }));
    refused(t, withLooseBox({ [field]: 'X'.repeat(65) }), { loose_boxes: [{ [field]: [MAX64] }] });
    refused(t, withLooseBox({ [field]: 'X&Y' }), { loose_boxes: [{ [field]: [NO_AMP] }] });
    refused(t, withLooseBox({ [field]: 'X,Y' }), { loose_boxes: [{ [field]: [NO_AMP] }] });
  });
}

t.test('rotation flags come all three together; the missing ones are named', async (t) => {
  refused(t, withLooseBox({ rotation_x: false }), {
    loose_boxes: [
      {
        rotation_y: [`This field is required when rotation_x is sent: ${ROTATIONS_XYZ}`],
        rotation_z: [`This field is required when rotation_x is sent: ${ROTATIONS_XYZ}`],
      },
    ],
  });
  refused(t, withLooseBox({ rotation_x: true, rotation_z: false }), {
    loose_boxes: [{ rotation_y: [`This field is required when rotation_x and rotation_z are sent: ${ROTATIONS_XYZ}`] }],
  });
});

t.test('rotation flags are booleans', async (t) => {
  refused(t, withLooseBox({ rotation_x: 'no', rotation_y: false, rotation_z: false }), { loose_boxes: [{ rotation_x: [BOOLEAN] }] });
});

t.test('shipment_type is refused inside loose_boxes, saying where it belongs', async (t) => {
  refused(t, withLooseBox({ shipment_type: 'dangerous_goods' }), {
    loose_boxes: [{ shipment_type: ['shipment_type belongs at the top level of the order, not inside loose_boxes elements.'] }],
  });
});

t.test('unknown fields in a loose box are refused', async (t) =>
  refused(t, withLooseBox({ colour: 'brown' }), { loose_boxes: [{ colour: [UNKNOWN] }] }),
);

// ---------------------------------------------------------------- recipients

for (const field of ['extra_recipients', 'extra_cc_recipients']) {
  t.test(`${field}: each bad address is named by its index`, async (t) => {
    refused(t, order({ [field]: ['ok@example.com', 'not-an-address', 'bad@'] }), { [field]: { 1: [EMAIL], 2: [EMAIL] } });
    refused(t, order({ [field]: ['ok@example.com', 7] }), { [field]: { 1: ['Expected a string.'] } });
    refused(t, order({ [field]: 'ops@example.com' }), { [field]: ['Expected a list.'] });
  });
}

// ---------------------------------------------------------------- all at once

t.test('every error of a payload is reported at once', async (t) => {
  refused(
    t,
    {
      supplier_name: 'Acme Supplier Ltd',
      reference: 'R'.repeat(65),
      transportation_mode: 'Air',
      shipment_skus: [item({ quantity: 0 })],
      order_items: [item()],
      pallets: [preBuilt({ shipment_type: 'normal', weight: 0 })],
      order_containers: [{ code: '40ft' }, { code: '40ft' }],
      extra_recipients: ['nope'],
      colour: 'red',
    },
    {
      consignee_name: [REQUIRED],
      colour: [UNKNOWN],
      reference: [MAX64],
      transportation_mode: ['"Air" is not a valid choice; use one of: OceanFCL, TruckFTL.'],
      non_field_errors: ['shipment_skus: Send either order_items or its alias shipment_skus, not both.'],
      shipment_skus: [{ quantity: ['Ensure this value is greater than or equal to 0.01.'] }],
      pallets: [{ shipment_type: ['shipment_type belongs at the top level of the order, not inside pallets elements.'], weight: [GT0] }],
      order_containers: [{}, { code: ['Container code "40ft" is listed more than once; list each code once, with its count.'] }],
      extra_recipients: { 0: [EMAIL] },
    },
  );
});
