// The planner's wire layout is written twice, once on each side: assembly/wire.ts reads the cargo
// and writes the boxes, src/planner/wasm-wire.ts writes the cargo and reads the boxes. What this checks
// is read from both files, so a field added on one side only fails here, whatever the fields are.
import { readFileSync } from 'node:fs';
import t from 'tap';

const source = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const assembly = source('assembly/wire.ts');
const host = source('src/planner/wasm-wire.ts');

/** The block that follows the first match of `start`, up to its closing brace. */
function block(text: string, start: RegExp): string {
  const match = start.exec(text);
  if (!match) throw new Error(`not found: ${start}`);
  const open = text.indexOf('{', match.index + match[0].length - 1);
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`unbalanced: ${start}`);
}

/**
 * A function body's part before its first loop with braces (else before its first loop), and the
 * body of its innermost loop (of a loop without braces, all after its head).
 */
function headerAndLoop(body: string): { header: string; loop: string } {
  const braced = /for \([^)]*\)\s*\{/.exec(body);
  const header = body.slice(0, braced ? braced.index : body.indexOf('for ('));
  let loop = body;
  while (/for \([^)]*\)\s*\{/.test(loop)) loop = block(loop, /for \([^)]*\)\s*\{/);
  if (loop === body) loop = body.slice(body.indexOf(')', body.indexOf('for (')) + 1);
  return { header, loop };
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/**
 * Values pushed by the `out.push(...)` calls in a piece of code, counting each call's arguments: the
 * non-empty pieces between its top-level commas, so a trailing comma (as the formatter writes a call
 * broken over lines) adds none.
 */
function pushedValues(text: string): number {
  let values = 0;
  for (const match of text.matchAll(/out\.push\(/g)) {
    let depth = 1;
    let piece = '';
    for (let i = match.index + match[0].length; depth > 0; i++) {
      const c = text[i]!;
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
      if (depth === 0 || (c === ',' && depth === 1)) {
        if (piece.trim() !== '') values++;
        piece = '';
      } else piece += c;
    }
  }
  return values;
}

t.test('the cargo the host writes is the cargo the planner reads: a count, then as many values per type', async (t) => {
  const read = headerAndLoop(block(assembly, /readCargo\(\): Cargo \{/));
  const written = headerAndLoop(block(host, /export function pushCargo\([^)]*\): void \{/));
  const perType = count(read.loop, /this\.next\(\)/g);
  t.ok(perType > 0, `the planner reads ${perType} values per type`);
  t.equal(pushedValues(written.loop), perType, 'values per type');
  t.equal(pushedValues(written.header), count(read.header, /this\.next\(\)/g), 'values before the types');
});

t.test('the boxes the planner writes are the boxes the host reads: a count, then as many values per box', async (t) => {
  const written = headerAndLoop(block(assembly, /export function writeBoxes\([^)]*\): void \{/));
  const read = headerAndLoop(block(host, /export function readBoxes\([^)]*\): WireBox\[\] \{/));
  const perBox = pushedValues(written.loop);
  t.ok(perBox > 0, `the planner writes ${perBox} values per box`);
  t.equal(count(read.loop, /r\.next\(\)/g), perBox, 'values per box');
  t.equal(count(read.header, /r\.next\(\)/g), pushedValues(written.header), 'values before the boxes');
});

t.test('the stacking policies have the same numbers on both sides', async (t) => {
  const planner = Object.fromEntries(
    [...source('assembly/cargo.ts').matchAll(/POLICY_(\w+): i32 = (\d+)/g)].map(([, name, value]) => [name, Number(value)]),
  );
  const hostPolicies = Object.fromEntries(
    [...block(host, /enum StackPolicy \{/).matchAll(/(\w+) = (\d+)/g)].map(([, name, value]) => [name!.toUpperCase(), Number(value)]),
  );
  t.ok(Object.keys(planner).length > 0);
  t.same(hostPolicies, planner);
});
