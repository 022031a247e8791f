// The submit schema as code generators read it (docs/openapi.md): its two rules across fields (an alias not
// beside its field, at least one non-empty cargo list) moved from anyOf/allOf fragments, which made them build
// the submit model as a union of those fragments, to dependentSchemas and if/then; the aliases moved from
// properties to patternProperties. The old form is rebuilt here as it was written, and both run side by side
// over every combination of the six cargo fields: the same verdict from the schema alone, and the same answer,
// refusal body included (its keys in the same order), from the service's validation.
import t from 'tap';
import { ALIASES, SUBMIT_RULES_ACROSS_FIELDS, SubmitOrderRequest } from '../../src/orders/submit-order-schema.js';
import { validateSubmitOrder, validateSubmitOrderAgainst } from '../../src/orders/validate-submit-order.js';
import { ajv } from '../../src/validation/ajv.js';

type Json = Record<string, any>;
const {
  dependentSchemas: _d,
  if: _if,
  then: _then,
  patternProperties,
  properties,
  ...withoutRules
} = JSON.parse(JSON.stringify(SubmitOrderRequest)) as Json;
t.strictSame(Object.keys(SUBMIT_RULES_ACROSS_FIELDS).sort(), ['dependentSchemas', 'if', 'then'], 'the rules removed are all there is');
const OLD_SCHEMA = {
  ...withoutRules,
  // Each alias a property again, declared after its field.
  properties: Object.fromEntries(
    Object.entries(properties as Json).flatMap(([name, schema]) => [
      [name, schema],
      ...Object.entries(ALIASES)
        .filter(([, canonical]) => canonical === name)
        .map(([alias]) => [alias, patternProperties[`^${alias}$`]]),
    ]),
  ),
  anyOf: Object.entries(ALIASES).flatMap((pair) =>
    pair.map((field) => ({ properties: { [field]: { type: 'array', minItems: 1 } }, required: [field] })),
  ),
  allOf: Object.entries(ALIASES).map(([alias, canonical]) => ({
    not: { properties: { [canonical]: true, [alias]: true }, required: [canonical, alias] },
  })),
};

const ROWS: Record<string, object> = {
  order_items: { item: 'SKU-1001', quantity: 3 },
  pre_builts: { name: 'P1', length: '120', width: '80', height: '150', weight: '400', count: 1 },
  loose_boxes: { name: 'B1', length: 40, width: 30, height: 20, weight: 5, count: 2 },
};
const rowOf = (field: string) => ROWS[field] ?? ROWS[ALIASES[field as keyof typeof ALIASES]]!;
// What a cargo field can be: left out, empty, a valid row, a row the schema refuses, not a list at all.
const STATES = ['absent', 'empty', 'row', 'bad row', 'not a list'] as const;
const valueIn = (state: (typeof STATES)[number], field: string): unknown =>
  state === 'empty' ? [] : state === 'row' ? [rowOf(field)] : state === 'bad row' ? [{ ...rowOf(field), count: 0 }] : 'x';
const FIELDS = Object.entries(ALIASES).flat();

function* everyCombination(): Generator<Record<string, unknown>> {
  const total = STATES.length ** FIELDS.length;
  for (let n = 0; n < total; n++) {
    const body: Record<string, unknown> = {
      supplier_name: 'Acme Supplier Ltd',
      consignee_name: 'Globex Consignee GmbH',
      reference: 'PO-1',
      transportation_mode: 'OceanFCL',
      order_containers: [{ code: '40ft' }],
    };
    let rest = n;
    for (const field of FIELDS) {
      const state = STATES[rest % STATES.length]!;
      rest = Math.floor(rest / STATES.length);
      if (state !== 'absent') body[field] = valueIn(state, field);
    }
    yield body;
  }
}

t.test(`every combination of the cargo fields (${STATES.length}^${FIELDS.length}): the old and the new schema agree`, async (t) => {
  const oldSchema = ajv.compile(OLD_SCHEMA);
  const newSchema = ajv.compile(JSON.parse(JSON.stringify(SubmitOrderRequest)));
  let combinations = 0;
  let valid = 0;
  const disagreements: string[] = [];
  const answers = new Map<string, number>();
  for (const body of everyCombination()) {
    combinations++;
    const verdict = oldSchema(body);
    if (verdict) valid++;
    if (newSchema(body) !== verdict) disagreements.push(JSON.stringify(body));
    const before = validateSubmitOrderAgainst(OLD_SCHEMA, body);
    const now = validateSubmitOrder(body);
    if (JSON.stringify(now) !== JSON.stringify(before)) disagreements.push(`answer: ${JSON.stringify(body)}`);
    const key = now.ok ? 'accepted' : Object.keys(now.errors).sort().join(',');
    answers.set(key, (answers.get(key) ?? 0) + 1);
  }
  t.equal(combinations, STATES.length ** FIELDS.length);
  t.strictSame(disagreements.slice(0, 5), [], `${disagreements.length} disagreements`);
  // Not a vacuous comparison: each rule accepts some combinations and refuses others.
  t.ok(valid > 0 && valid < combinations, `${valid} of ${combinations} valid`);
  t.ok(answers.get('accepted')! > 0, 'some accepted');
  t.ok(answers.get('non_field_errors')! > 0, 'some refused for no non-empty cargo list alone');
  t.ok(
    [...answers.keys()].some((key) => /^(boxes|pallets|shipment_skus)$/.test(key)),
    'some refused for an alias beside its field alone',
  );
  t.comment(
    `${answers.size} distinct answers; ${answers.get('accepted')} accepted, ${answers.get('non_field_errors')} refused for no cargo alone`,
  );
});

t.test('bodies of more errors than are reported: the same first ones, in the same order', async (t) => {
  let compared = 0;
  for (const fields of [['shipment_skus', 'pre_builts'], ['order_items', 'pallets', 'boxes'], ['boxes', 'loose_boxes'], ['pallets']]) {
    const body: Json = {
      supplier_name: '',
      consignee_name: 'B',
      reference: '',
      transportation_mode: 'X',
      order_containers: [{ code: 'nope' }],
      colour: 1,
    };
    for (const field of fields) body[field] = Array.from({ length: 30 }, () => ({ ...rowOf(field), count: 0, name: '' }));
    const now = validateSubmitOrder(body);
    t.equal(JSON.stringify(now), JSON.stringify(validateSubmitOrderAgainst(OLD_SCHEMA, body)), fields.join(', '));
    t.match(JSON.stringify(now), /more errors? not shown/, 'past the reported maximum');
    compared++;
  }
  t.equal(compared, 4);
});

t.test('the refusals of the two rules, word for word', async (t) => {
  const body = [...everyCombination()][0]!;
  t.strictSame(validateSubmitOrder(body), {
    ok: false,
    errors: {
      non_field_errors: [
        'Send at least one non-empty list of cargo: order_items (or shipment_skus), pre_builts (or pallets) or loose_boxes (or boxes).',
      ],
    },
  });
  t.strictSame(validateSubmitOrder({ ...body, boxes: [ROWS.loose_boxes], loose_boxes: [ROWS.loose_boxes] }), {
    ok: false,
    errors: { boxes: ['Send either loose_boxes or its alias boxes, not both.'] },
  });
});
