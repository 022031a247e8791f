// Decimal fields in typebox schemas. A decimal is a JSON number or a decimal string; its digit
// limits are carried by the `x-decimal` keyword (an OpenAPI extension, so the published schema states
// them), which the shared ajv instance checks with the same parser that produces the stored value.
// `pattern`, `exclusiveMinimum`, `minimum` and `maximum` are there for readers of the OpenAPI document
// and client-side validators; the error translation reports only `x-decimal` for such fields, so a
// client gets one precise message per problem instead of one per keyword.
import Type, { type TUnsafe } from 'typebox';
import type { FuncKeywordDefinition } from 'ajv/dist/2020.js';
import type { SchemaValidateFunction } from 'ajv/dist/types/index.js';
import { DECIMAL_PLACES, maxWholeDigits, parseDecimal, type DecimalRule } from './decimal.js';

export const DECIMAL_KEYWORD = 'x-decimal';

export function DecimalInput(rule: DecimalRule, options: { description: string; examples?: unknown[] }): TUnsafe<string | number> {
  const whole = maxWholeDigits(rule);
  return Type.Unsafe<string | number>({
    type: ['string', 'number'],
    pattern: `^0*[0-9]{1,${whole}}(\\.[0-9]{1,${DECIMAL_PLACES}})?$`,
    ...(rule.minimum !== undefined ? { minimum: Number(rule.minimum) } : {}),
    ...(rule.exclusiveMinimum !== undefined ? { exclusiveMinimum: Number(rule.exclusiveMinimum) } : {}),
    maximum: Number(`${'9'.repeat(whole)}.${'9'.repeat(DECIMAL_PLACES)}`),
    [DECIMAL_KEYWORD]: { ...rule },
    ...options,
  });
}

// `errors: false`: ajv then records one plain error per bad value with a push. A keyword returning
// its own errors is appended with Array.concat, which copies every error so far each time: with
// thousands of bad elements in a 1 MiB body that is quadratic. The translation asks parseDecimal
// again for the messages (ajv's verbose errors carry the value and the rule).
const validateDecimal: SchemaValidateFunction = (rule: DecimalRule, data: unknown): boolean =>
  // Other types are the `type` keyword's business; one message about the type is enough.
  (typeof data !== 'string' && typeof data !== 'number') || parseDecimal(data, rule).ok;

export const decimalKeyword: FuncKeywordDefinition = {
  keyword: DECIMAL_KEYWORD,
  schemaType: 'object',
  errors: false,
  validate: validateDecimal,
  metaSchema: {
    type: 'object',
    required: ['maxDigits'],
    properties: {
      maxDigits: { type: 'integer', minimum: DECIMAL_PLACES + 1 },
      minimum: { type: 'string' },
      exclusiveMinimum: { type: 'string' },
    },
    additionalProperties: false,
  },
};
