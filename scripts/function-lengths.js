// Functions longer than a limit, by the TypeScript compiler's own parse: `node scripts/function-lengths.js
// [folder] [limit]` (src/ and 70 by default, TigerBeetle's limit; the house's rule is 100, docs/architecture.md)
// prints each function, method, accessor or arrow function over the limit, longest first, with its lines
// from its first token to its closing brace, and how many there are. A function inside another counts on
// its own, and within the one around it. It reports; it does not fail.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export function longFunctions(folder, limit) {
  const found = [];
  const visitFile = (file) => {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        const name =
          node.name?.getText(source) ??
          (node.parent && ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
        if (last - first + 1 > limit) found.push({ lines: last - first + 1, file, line: first + 1, name });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  };
  const walk = (path) => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) walk(join(path, entry));
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) visitFile(path);
  };
  walk(folder);
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folder = process.argv[2] ?? 'src';
  const limit = Number(process.argv[3] ?? 70);
  const found = longFunctions(folder, limit);
  for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${relative(process.cwd(), f.file)}:${f.line}  ${f.name}`);
  console.log(`${found.length} functions over ${limit} lines in ${folder}`);
}
