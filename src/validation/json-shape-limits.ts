// What any JSON body must satisfy before a schema sees it: nesting no deeper than the deepest
// payload we take, and text that is well-formed Unicode. Checked by an explicit stack, never by
// recursion, so a 5,000-deep array costs a loop and not the call stack; and before ajv, whose
// errors and their formatting would otherwise walk the same depth.

/** Our deepest payload is three levels of objects and lists (order -> pre_builts -> prebuiltitem_set -> item) plus one. */
export const MAX_JSON_DEPTH = 8;

export interface JsonShapeProblem {
  /** Path to the offending value, e.g. ['order_items', 3, 'item']. */
  path: (string | number)[];
  message: string;
}

// In a `u` regex a surrogate pair is one code point, so only a lone half matches.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export function findJsonShapeProblem(value: unknown): JsonShapeProblem | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return { path, message: 'Contains a lone UTF-16 surrogate; send well-formed Unicode text.' };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= MAX_JSON_DEPTH)
      return { path, message: `Nested too deeply: at most ${MAX_JSON_DEPTH} levels of lists and objects are accepted.` };
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: [...path, i] });
    } else {
      for (const [key, child] of Object.entries(current)) {
        if (LONE_SURROGATE.test(key))
          return { path, message: 'A field name contains a lone UTF-16 surrogate; send well-formed Unicode text.' };
        stack.push({ value: child, path: [...path, key] });
      }
    }
  }
  return undefined;
}
