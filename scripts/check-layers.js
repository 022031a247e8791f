// The layering rules of issue 14, checked on the TypeScript sources (type-only imports count too:
// they tie one folder's meaning to another's even though the compiled code drops them).
// 1. Nothing under the domain folders imports src/http: rules stay free of transport.
// 2. No two folders import each other, directly: a change in one never ripples back from the other.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const DOMAIN = ['src/orders', 'src/master-data', 'src/validation', 'src/planner'];
const SOURCES = ['src', 'assembly'];
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

function* files(dir) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

// The folder a file belongs to: its directory, with the files directly under src/ as one folder.
const folderOf = (file) => dirname(file);

const edges = new Map(); // "from -> to" -> example "file imports target"
const problems = [];
for (const source of SOURCES) {
  for (const file of files(source)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const target = relative(root, resolve(join(root, dirname(file)), match[1] ?? match[2]));
      const from = folderOf(file);
      const to = folderOf(target);
      if (DOMAIN.some((domain) => from === domain || from.startsWith(`${domain}/`)) && (to === 'src/http' || to.startsWith('src/http/'))) {
        problems.push(`${file} imports ${target}: domain code must not depend on the HTTP layer`);
      }
      if (from !== to && !edges.has(`${from} -> ${to}`)) edges.set(`${from} -> ${to}`, `${file} imports ${target}`);
    }
  }
}
for (const [edge, example] of edges) {
  const [from, to] = edge.split(' -> ');
  if (from < to && edges.has(`${to} -> ${from}`)) {
    problems.push(`${from} and ${to} import each other: ${example}; ${edges.get(`${to} -> ${from}`)}`);
  }
}
for (const problem of problems) console.error(problem);
console.log(`check:layers: ${edges.size} folder dependencies, ${problems.length} problem(s)`);
if (problems.length > 0) process.exit(1);
