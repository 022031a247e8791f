// The layering rules, checked on the TypeScript sources (type-only imports count too: they tie one
// folder's meaning to another's even though the compiled code drops them).
// 1. Nothing under the domain folders imports src/http: rules stay free of transport.
// 2. No two folders import each other, directly: a change in one never ripples back from the other.
// 3. No loop through three or more folders either: A imports B, B imports C and C imports A is the
//    same tie as two folders importing each other, only harder to see. Each loop is reported with its
//    folders in order and one import that makes each arrow.
// 4. projections/ stands on the domain and nothing else: its files import one another, the order's
//    own definitions in src/orders (its events, its view, the narrowing of stored events) and the plan
//    contract (how a stored plan reads), and may name the log's RecordedEvent shape in a type-only
//    import. No store, adapter, route or I/O: a projection stays (document, event) -> document.
// 5. Nothing the projections stand on imports them: the domain folders know no projection; the read
//    model (src/orders/read-model) and the layers above it import projections/, downward only.
// 6. No two files import each other, directly or through others: within a folder too, a loop of
//    imports means neither file can be read, tested or changed without the other (and ES modules
//    evaluate such a loop with one side half-initialised). Each loop is reported file by file, in
//    assembly/ as in src/.
// 7. Every relative import names a file, the way its compiler finds it: in src/ and projections/ the
//    compiled file ('./plan.js' for plan.ts: Node's ES modules take no import without an extension, and
//    tsc's NodeNext asks for it), in assembly/ the module without an extension ('./blocks', which asc
//    reads as blocks.ts). An import written otherwise, or naming no file, fails: the rules above could
//    not follow it, so a loop through it would pass unseen.
// The tree checked is the repository, or the directory given as the first argument (or in
// CHECK_LAYERS_ROOT): the test plants loops in a temporary tree.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? process.env.CHECK_LAYERS_ROOT ?? join(dirname(new URL(import.meta.url).pathname), '..'));
const DOMAIN = ['src/orders', 'src/master-data', 'src/validation', 'src/plan-contract', 'src/planner'];
const SOURCES = ['src', 'projections', 'assembly'];
const PROJECTIONS = 'projections';
/** Folders whose files projections/ may import, values and types alike. */
const PROJECTION_FOUNDATIONS = [PROJECTIONS, 'src/orders', 'src/plan-contract'];
/** Folders projections/ may name in type-only imports besides. */
const PROJECTION_TYPES_FROM = ['src/eventstore'];
/** Domain folders that may import projections/: the read model is built by them. */
const PROJECTION_USERS = ['src/orders/read-model', 'src/orders/api'];
const TYPE_ONLY = /^\s*(?:import|export)\s+type\s/;
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
const next = new Map(); // folder -> the folders it imports, in the order first seen
const fileNext = new Map(); // file -> the files it imports
const problems = [];
for (const source of SOURCES.filter((dir) => existsSync(join(root, dir)))) {
  for (const file of files(source)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const written = match[1] ?? match[2];
      // target: the file imported; named: the import as written, from the root (what messages quote)
      const { target, named, problem } = resolveImport(file, written);
      if (problem) {
        problems.push(`${file} imports '${written}': ${problem}`);
        continue;
      }
      if (!fileNext.has(file)) fileNext.set(file, []);
      fileNext.get(file).push(target);
      const from = folderOf(file);
      const to = folderOf(target);
      if (DOMAIN.some((domain) => from === domain || from.startsWith(`${domain}/`)) && (to === 'src/http' || to.startsWith('src/http/'))) {
        problems.push(`${file} imports ${named}: domain code must not depend on the HTTP layer`);
      }
      const within = (folder, list) => list.some((dir) => folder === dir || folder.startsWith(`${dir}/`));
      if (within(from, [PROJECTIONS])) {
        const allowed = PROJECTION_FOUNDATIONS.includes(to) || (PROJECTION_TYPES_FROM.includes(to) && TYPE_ONLY.test(match[0]));
        if (!allowed)
          problems.push(
            `${file} imports ${named}: projections/ stands only on the order's definitions and the plan contract (types from the log)`,
          );
      }
      if (within(to, [PROJECTIONS]) && within(from, DOMAIN) && !within(from, PROJECTION_USERS)) {
        problems.push(`${file} imports ${named}: the domain must not import the projections built on it`);
      }
      if (from !== to && !edges.has(`${from} -> ${to}`)) {
        edges.set(`${from} -> ${to}`, `${file} imports ${named}`);
        if (!next.has(from)) next.set(from, []);
        next.get(from).push(to);
      }
    }
  }
}
/**
 * The file an import names (relative to the root), as tsc (src/, projections/) or asc (assembly/)
 * finds it, or the problem with how it is written.
 */
function resolveImport(file, written) {
  const path = relative(root, resolve(join(root, dirname(file)), written));
  const exists = (candidate) => existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile();
  const assemblyScript = file.startsWith('assembly/');
  const extension = /\.[A-Za-z0-9]+$/.exec(written)?.[0];
  if (assemblyScript) {
    if (extension !== undefined) return { problem: `asc names a module without an extension ('${written.slice(0, -extension.length)}')` };
    const target = [`${path}.ts`, join(path, 'index.ts')].find(exists);
    return target ? { target, named: path } : { problem: `no file ${path}.ts` };
  }
  if (extension === undefined) {
    return { problem: `no extension: Node's ES modules need the compiled file's name ('${written}.js')` };
  }
  const target = extension === '.js' ? [path.replace(/\.js$/, '.ts'), path].find(exists) : exists(path) ? path : undefined;
  return target ? { target, named: path } : { problem: `no file ${extension === '.js' ? path.replace(/\.js$/, '.ts') : path}` };
}

for (const [edge, example] of edges) {
  const [from, to] = edge.split(' -> ');
  if (from < to && edges.has(`${to} -> ${from}`)) {
    problems.push(`${from} and ${to} import each other: ${example}; ${edges.get(`${to} -> ${from}`)}`);
  }
}
for (const { loop, group } of longerLoops()) {
  const arrows = loop.map((from, i) => {
    const to = loop[(i + 1) % loop.length];
    return `${from} -> ${to} (${edges.get(`${from} -> ${to}`)})`;
  });
  const tangle =
    group.length > loop.length ? ` (one of the loops among ${group.length} folders that reach one another: ${group.join(', ')})` : '';
  problems.push(`a loop through ${loop.length} folders: ${[...loop, loop[0]].join(' -> ')}: ${arrows.join('; ')}${tangle}`);
}
for (const group of components(fileNext)) {
  if (group.length < 2 && !(fileNext.get(group[0]) ?? []).includes(group[0])) continue;
  const loop = shortestLoop(group[0], new Set(group), fileNext);
  const tangle =
    group.length > loop.length ? ` (one of the loops among ${group.length} files that reach one another: ${group.join(', ')})` : '';
  problems.push(`files import each other in a loop: ${[...loop, loop[0]].join(' -> ')}${tangle}`);
}
for (const problem of problems) console.error(problem);
console.log(`check:layers: ${edges.size} folder dependencies, ${problems.length} problem(s)`);
if (problems.length > 0) process.exit(1);

/**
 * One loop of three or more folders for each group of folders that reach one another (a strongly
 * connected component, Tarjan's algorithm), the shortest such loop in the group, starting at its
 * first folder by name. A group tied only by pairs importing each other has none: rule 2 reports it.
 */
function longerLoops() {
  const loops = [];
  for (const group of components()) {
    if (group.length < 3) continue;
    const inGroup = new Set(group);
    for (let length = 3; length <= group.length; length++) {
      const loop = group.map((start) => loopOf(start, length, inGroup)).find((found) => found !== undefined);
      if (loop) {
        loops.push({ loop, group });
        break;
      }
    }
  }
  return loops;
}

/** A loop of exactly `length` distinct folders from `start` back to it, within the group. */
function loopOf(start, length, inGroup) {
  const path = [start];
  const walk = (folder) => {
    for (const to of next.get(folder) ?? []) {
      if (!inGroup.has(to)) continue;
      if (to === start) {
        if (path.length === length) return true;
        continue;
      }
      // folders before the start by name were tried as starts already; a folder is visited once per loop
      if (to < start || path.includes(to) || path.length === length) continue;
      path.push(to);
      if (walk(to)) return true;
      path.pop();
    }
    return false;
  };
  return walk(start) ? path : undefined;
}

/** The shortest loop from `start` back to it within the group (breadth first). */
function shortestLoop(start, inGroup, graph) {
  const cameFrom = new Map();
  let frontier = [start];
  while (frontier.length > 0) {
    const following = [];
    for (const from of frontier) {
      for (const to of graph.get(from) ?? []) {
        if (!inGroup.has(to)) continue;
        if (to === start) {
          const loop = [from];
          while (loop[0] !== start) loop.unshift(cameFrom.get(loop[0]));
          return loop;
        }
        if (cameFrom.has(to)) continue;
        cameFrom.set(to, from);
        following.push(to);
      }
    }
    frontier = following;
  }
  return [start];
}

function components(graph = next) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let counter = 0;
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      groups.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}
