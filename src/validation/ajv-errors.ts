// Turns ajv errors into the spec's field errors, in sentences an integrator can act on. Errors are
// addressed by the client's own field names (ajv's instancePath follows the payload), so an error
// inside `shipment_skus` is reported under `shipment_skus`, not under `order_items`.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { NON_FIELD_ERRORS } from './field-errors.js';
import { parseDecimal, type DecimalRule } from './decimal.js';
import { DECIMAL_KEYWORD } from './decimal-schema.js';
import { EMAIL_MESSAGE } from './email.js';
import type { ErrorPath, FieldErrorCollector } from './error-collector.js';
import { HTTP_URL_MESSAGE, patternMessage } from './patterns.js';

export interface Translated {
  path: ErrorPath;
  message: string;
}

/** Lets a caller word an error itself; return undefined to keep the generic wording. */
export type SpecialCase = (error: ErrorObject, path: ErrorPath, generic: Translated) => Translated | undefined;

export function reportAjvErrors(
  errors: readonly ErrorObject[],
  input: unknown,
  collector: FieldErrorCollector,
  special?: SpecialCase,
): void {
  const together = new Map<string, { path: ErrorPath; group: Set<string>; missing: Set<string> }>();
  for (const error of errors) {
    const path = instancePath(error.instancePath, input);
    if (error.keyword === 'dependentRequired') {
      // Gathered per object first: ajv reports one error per (sent, missing) pair.
      const entry = together.get(error.instancePath) ?? { path, group: new Set<string>(), missing: new Set<string>() };
      const { property, missingProperty } = error.params as { property: string; missingProperty: string };
      const dependents = (error.schema as Record<string, string[]>)[property] ?? [];
      for (const name of [property, ...dependents]) entry.group.add(name);
      entry.missing.add(missingProperty);
      together.set(error.instancePath, entry);
      continue;
    }
    for (const generic of translate(error, path)) {
      const chosen = special?.(error, path, generic) ?? generic;
      collector.add(chosen.path, chosen.message);
    }
  }
  // Each missing field is named where it is missing, saying which fields sent made it required.
  for (const { path, group, missing } of together.values()) {
    const names = [...group].sort();
    const sent = names.filter((name) => !missing.has(name));
    for (const name of names.filter((name) => missing.has(name))) {
      collector.add(
        [...path, name],
        `This field is required when ${wordList(sent)} ${sent.length === 1 ? 'is' : 'are'} sent: send ${wordList(names)} together.`,
      );
    }
  }
  // Never let a refused payload through with an empty error body.
  if (errors.length > 0 && collector.empty) collector.add([], 'The request does not match the schema.');
}

function translate(error: ErrorObject, path: ErrorPath): Translated[] {
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as Record<string, unknown>;
  // Decimal fields: their own keyword says precisely what is wrong; the standard keywords beside it
  // (pattern, minimum, maximum) are documentation and would only repeat it less clearly.
  if (DECIMAL_KEYWORD in parent && error.keyword !== 'type' && error.keyword !== DECIMAL_KEYWORD) return [];
  const at = (message: string): Translated[] => [{ path, message }];
  switch (error.keyword) {
    case DECIMAL_KEYWORD: {
      const parsed = parseDecimal(error.data, error.schema as DecimalRule);
      return parsed.ok ? [] : parsed.errors.map((message) => ({ path, message }));
    }
    case 'required':
      return [{ path: [...path, String(params.missingProperty)], message: 'This field is required.' }];
    case 'additionalProperties':
      return [{ path: [...path, String(params.additionalProperty)], message: 'Unknown field.' }];
    case 'type':
      return typeError(path, String(params.type).split(','), error.data, DECIMAL_KEYWORD in parent);
    case 'enum':
      return at(`${quote(error.data)} is not a valid choice; use one of: ${(error.schema as unknown[]).join(', ')}.`);
    case 'const':
      return at(`Expected ${JSON.stringify(error.schema)}.`);
    case 'minLength':
      return at(params.limit === 1 ? 'This field may not be blank.' : `Ensure this field has at least ${params.limit} characters.`);
    case 'maxLength':
      return at(`Ensure this field has no more than ${params.limit} characters.`);
    case 'pattern':
      return at(patternMessage(String(params.pattern)) ?? `Enter a value matching the pattern ${params.pattern}.`);
    case 'format':
      return at(formatMessage(String(params.format)));
    case 'minimum':
      return at(`Ensure this value is greater than or equal to ${params.limit}.`);
    case 'exclusiveMinimum':
      return at(`Ensure this value is greater than ${params.limit}.`);
    case 'maximum':
      return at(`Ensure this value is less than or equal to ${params.limit}.`);
    case 'exclusiveMaximum':
      return at(`Ensure this value is less than ${params.limit}.`);
    case 'minItems':
      return at(params.limit === 1 ? 'This list may not be empty.' : `Ensure this list has at least ${params.limit} elements.`);
    case 'maxItems':
      return at(`Ensure this list has no more than ${params.limit} elements.`);
    case 'uniqueItems':
      return duplicates(path, error.data);
    default:
      return at(`${capitalize(error.message ?? 'is invalid')}.`);
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
  array: 'a list',
  object: 'an object',
};

function typeError(path: ErrorPath, types: string[], data: unknown, decimal: boolean): Translated[] {
  if (decimal) return [{ path, message: 'Expected a decimal number, as a string such as "120.5" or a JSON number.' }];
  if (types.length === 1 && types[0] === 'object') {
    // A list element or the body itself cannot hold a message list; it goes under non_field_errors.
    const last = path[path.length - 1];
    const target = last === undefined || typeof last === 'number' ? [...path, NON_FIELD_ERRORS] : path;
    return [{ path: target, message: 'Expected an object.' }];
  }
  if (types.length === 1 && types[0] === 'array' && data !== null && typeof data === 'object') {
    return [{ path, message: 'Expected a list, not a single object: wrap it in [ ].' }];
  }
  const names = types.map((type) => TYPE_NAMES[type] ?? type);
  return [{ path, message: `Expected ${names.join(' or ')}.` }];
}

function duplicates(path: ErrorPath, data: unknown): Translated[] {
  if (!Array.isArray(data)) return [];
  const seen = new Set<string>();
  const found: Translated[] = [];
  data.forEach((value, index) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) found.push({ path: [...path, index], message: `Duplicate value ${quote(value)}: list each value once.` });
    seen.add(key);
  });
  return found;
}

function formatMessage(format: string): string {
  switch (format) {
    case 'email':
      return EMAIL_MESSAGE;
    case 'uri':
      // The only URLs the service takes are webhook endpoints, which must be http(s).
      return HTTP_URL_MESSAGE;
    case 'date-time':
      return 'Enter a valid date-time in ISO 8601 format.';
    default:
      return `Enter a valid ${format}.`;
  }
}

/** JSON-pointer instancePath to path segments; segments that index a list become numbers. */
function instancePath(pointer: string, input: unknown): ErrorPath {
  if (pointer === '') return [];
  const segments: (string | number)[] = [];
  let data = input;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(data)) {
      const index = Number(segment);
      segments.push(index);
      data = data[index];
    } else {
      segments.push(segment);
      data =
        data !== null && typeof data === 'object' && Object.hasOwn(data, segment) ? (data as Record<string, unknown>)[segment] : undefined;
    }
  }
  return segments;
}

/** A client's value in a message, shortened: it is there to recognise, not to echo a megabyte back. */
function quote(value: unknown): string {
  const text = typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function wordList(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
