#!/usr/bin/env node
// Lists the functions of src/ longer than a limit (default 70 lines, TigerBeetle's), longest first, and
// counts them: `node scripts/long-functions.js [limit] [folder]`. A function is any body the compiler
// calls one (declarations, methods, accessors, constructors, function expressions and arrows); its
// length runs from its first line to its last, both counted, so a function nested in another counts
// in both. It reads the sources with the TypeScript compiler's parser, so strings, comments and
// template literals cannot fool it. Exit 0 whatever it finds: it reports, the guide's limit is 100.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const limit = Number(process.argv[2] ?? 70);
const root = process.argv[3] ?? 'src';

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

function nameOf(node, file) {
  if (node.name) return node.name.getText(file);
  // An arrow or function expression takes the name it is assigned to, or that of the property it sets.
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)))
    return parent.name.getText(file);
  return '(anonymous)';
}

const found = [];
for (const path of sources(root)) {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit) found.push({ where: `${relative('.', path)}:${first + 1}`, name: nameOf(node, file), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}
found.sort((a, b) => b.lines - a.lines);
for (const { where, name, lines } of found) console.log(`${String(lines).padStart(4)}  ${name}  ${where}`);
console.log(`${found.length} functions over ${limit} lines in ${root}/`);
