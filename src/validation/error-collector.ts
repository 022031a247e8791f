// Builds the 400 body of the spec from errors addressed by path, e.g. ['order_items', 1, 'quantity'].
// Arrays of objects nest as lists with `{}` for the elements that are fine; arrays of scalars (e-mail
// lists) nest as objects keyed by index, `{"extra_recipients": {"1": ["..."]}}`, because a list
// of messages cannot sit inside a list of element errors. The input is needed to know how long
// each list must be.
import { NON_FIELD_ERRORS, type FieldErrors } from './field-errors.js';

export type ErrorPath = readonly (string | number)[];

/**
 * Messages kept per body: without a bound, a body of many bad elements is answered with an error body
 * far larger than itself. The first ones say what is wrong, and a summary says how many more there were.
 */
export const MAX_REPORTED_ERRORS = 50;

export class FieldErrorCollector {
  private readonly collected: FieldErrors = {};
  private added = 0;

  constructor(private readonly input: unknown) {}

  get empty(): boolean {
    return this.added === 0;
  }

  /** The 400 body: the first MAX_REPORTED_ERRORS messages, then one saying how many were left out. */
  get errors(): FieldErrors {
    if (this.added <= MAX_REPORTED_ERRORS) return this.collected;
    const omitted = this.added - MAX_REPORTED_ERRORS;
    const summary = `${omitted} more error${omitted === 1 ? '' : 's'} not shown; fix these and send the order again to see the rest.`;
    const existing = own(this.collected, NON_FIELD_ERRORS);
    const trimmed = withoutTrailingEmptyElements(this.collected);
    set(trimmed, NON_FIELD_ERRORS, [...(existing !== undefined && isMessageList(existing) ? existing : []), summary]);
    return trimmed;
  }

  /**
   * Adds a message at a path. An empty path means the body as a whole (`non_field_errors`); a path
   * ending in an index means an element of a list of scalars.
   */
  add(path: ErrorPath, message: string): void {
    if (++this.added > MAX_REPORTED_ERRORS) return;
    const segments = path.length === 0 ? [NON_FIELD_ERRORS] : path;
    let node: FieldErrors = this.collected;
    let data: unknown = this.input;
    for (let i = 0; i < segments.length; i++) {
      const key = String(segments[i]);
      const next = segments[i + 1];
      if (next === undefined) {
        addMessage(node, key, message);
        return;
      }
      const value = childOf(data, segments[i]!);
      if (typeof next === 'number' && i + 2 < segments.length) {
        const list = listAt(node, key, Array.isArray(value) ? value.length : next + 1);
        const element = list?.[next];
        if (!element) return addMessage(node, key, `${describe(segments.slice(i + 1))}: ${message}`);
        node = element;
        data = childOf(value, next);
        i++;
      } else {
        const object = objectAt(node, key);
        if (!object) return addMessage(node, key, `${describe(segments.slice(i + 1))}: ${message}`);
        node = object;
        data = value;
      }
    }
  }
}

// Once messages are left out, the `{}` of every element after the last one reported say nothing and
// would make a long list's error body as long as the list: they go.
function withoutTrailingEmptyElements(node: FieldErrors): FieldErrors {
  const copy: FieldErrors = {};
  for (const [key, value] of Object.entries(node)) {
    if (!Array.isArray(value) || isMessageList(value)) {
      set(copy, key, Array.isArray(value) ? value : withoutTrailingEmptyElements(value));
      continue;
    }
    const elements = value as FieldErrors[];
    let end = elements.length;
    while (end > 0 && Object.keys(elements[end - 1]!).length === 0) end--;
    set(copy, key, elements.slice(0, end).map(withoutTrailingEmptyElements));
  }
  return copy;
}

const SEEN = new WeakMap<string[], Set<string>>();

function addMessage(node: FieldErrors, key: string, message: string): void {
  const existing = own(node, key);
  if (existing === undefined) {
    set(node, key, [message]);
  } else if (isMessageList(existing)) {
    // A Set beside each list: a list can grow to thousands of messages and must stay linear.
    let seen = SEEN.get(existing);
    if (!seen) SEEN.set(existing, (seen = new Set(existing)));
    if (!seen.has(message)) {
      seen.add(message);
      existing.push(message);
    }
  } else if (!Array.isArray(existing)) {
    addMessage(existing, NON_FIELD_ERRORS, message);
  } else {
    // A list of element errors cannot hold a message about the list itself; say it one level up.
    addMessage(node, NON_FIELD_ERRORS, `${key}: ${message}`);
  }
}

function listAt(node: FieldErrors, key: string, length: number): FieldErrors[] | undefined {
  const existing = own(node, key);
  if (existing === undefined) {
    const list: FieldErrors[] = Array.from({ length }, () => ({}));
    set(node, key, list);
    return list;
  }
  if (!Array.isArray(existing) || isMessageList(existing)) return undefined;
  return existing as FieldErrors[];
}

function objectAt(node: FieldErrors, key: string): FieldErrors | undefined {
  const existing = own(node, key);
  if (existing === undefined) {
    const object: FieldErrors = {};
    set(node, key, object);
    return object;
  }
  return Array.isArray(existing) ? undefined : existing;
}

function isMessageList(value: FieldErrors[string]): value is string[] {
  return Array.isArray(value) && value.length > 0 && typeof value[0] === 'string';
}

// Field names come from the client: a field called "__proto__" or "constructor" must become an
// ordinary key of the error body, never reach (or change) a prototype.
function own(node: FieldErrors, key: string): FieldErrors[string] | undefined {
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

function set(node: FieldErrors, key: string, value: FieldErrors[string]): void {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
}

function childOf(data: unknown, segment: string | number): unknown {
  if (data === null || typeof data !== 'object' || !Object.hasOwn(data, segment)) return undefined;
  return (data as Record<string, unknown>)[segment];
}

function describe(path: ErrorPath): string {
  return path
    .map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${segment}`))
    .join('')
    .replace(/^\./, '');
}
