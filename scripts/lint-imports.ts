// npm run lint: the import direction of docs/architecture.md, no cycles, no default exports, no barrel files, and no write
// to a money table outside server/payments/, server/ledger/, server/stats/ and the seed (scripts/money-writes.ts).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { moneyTableExports, moneyWriteProblems } from './money-writes.ts';

const root = resolve(import.meta.dirname, '..');
const scanned = ['src', 'commands', 'panes', 'server'];

/** zone → zones it may import (itself always allowed). Matched by longest prefix. */
const allowed: Record<string, string[]> = {
  'src/contract': [],
  'src/format': [],
  'src/state': ['src/contract'],
  'src/api': ['src/contract', 'src/state'],
  'src/auth': ['src/contract', 'src/api', 'src/state'],
  'src/ui': ['src/format'],
  'src/context': ['src/api', 'src/state', 'src/ui', 'src/contract', 'src/format'],
  'src/app': ['*'],
  commands: ['src/contract', 'src/api', 'src/state', 'src/format'],
  panes: ['src/ui', 'src/api', 'src/state', 'src/format', 'src/contract', 'commands/registry'],
  server: ['src/contract'],
};

function zoneOf(file: string): string | null {
  const candidates = Object.keys(allowed).filter((zone) => file === zone || file.startsWith(`${zone}/`));
  return candidates.sort((a, b) => b.length - a.length)[0] ?? null;
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' || name === 'node_modules' ? [] : files(path);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const importPattern = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

type Edge = { from: string; to: string; typeOnly: boolean };

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = resolve(dirname(join(root, from)), specifier);
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate);
  }
  return relative(root, target);
}

const problems: string[] = [];
const edges: Edge[] = [];
const moneyExports = moneyTableExports(readFileSync(join(root, 'server/db/schema.ts'), 'utf8'));
for (const file of scanned.flatMap((dir) => files(join(root, dir))).map((path) => relative(root, path))) {
  const text = readFileSync(join(root, file), 'utf8');
  if (file.startsWith('server/')) problems.push(...moneyWriteProblems(file, text, moneyExports));
  if (/^export default\b/m.test(text)) problems.push(`${file}: default export (named exports only)`);
  if (/(^|\/)index\.tsx?$/.test(file) && /^export \* from/m.test(text)) problems.push(`${file}: barrel file`);
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[3] ?? match[4];
    if (!specifier) continue;
    const target = resolveImport(file, specifier);
    if (!target) continue;
    edges.push({ from: file, to: target, typeOnly: Boolean(match[2]) });
  }
}

for (const edge of edges) {
  const fromZone = zoneOf(edge.from);
  const toZone = zoneOf(edge.to);
  if (!fromZone) continue;
  if (!toZone) {
    if (!edge.to.startsWith('server/') || !edge.from.startsWith('server/')) problems.push(`${edge.from} → ${edge.to}: outside the architecture's folders`);
    continue;
  }
  if (fromZone === toZone) continue;
  const permitted = allowed[fromZone] ?? [];
  const ok = permitted.includes('*') || permitted.some((zone) => edge.to === zone || edge.to.startsWith(`${zone}/`) || edge.to.startsWith(`${zone}.`));
  if (!ok) problems.push(`${edge.from} → ${edge.to}: ${fromZone} may not import ${toZone}`);
}

// Cycles over every import, type-only ones too: they vanish at run time, but a reader still has to hold both files to
// understand either, and a type that two files need belongs to a third.
const graph = new Map<string, string[]>();
for (const edge of edges) graph.set(edge.from, [...(graph.get(edge.from) ?? []), edge.to]);
const state = new Map<string, 'visiting' | 'done'>();
const stack: string[] = [];
function visit(node: string): void {
  state.set(node, 'visiting');
  stack.push(node);
  for (const next of graph.get(node) ?? []) {
    if (state.get(next) === 'visiting') problems.push(`import cycle: ${[...stack.slice(stack.indexOf(next)), next].join(' → ')}`);
    else if (!state.has(next)) visit(next);
  }
  stack.pop();
  state.set(node, 'done');
}
for (const node of graph.keys()) if (!state.has(node)) visit(node);

// Folders of server/ that import each other: a reader of either must hold both. The one allowed is by design and
// explained in docs/architecture.md ('Inside server/'): the card columns of transactions are written only in payments/.
const allowedTies = new Set(['cards ↔ payments']);
const serverFolder = (file: string) => /^server\/([^/]+)\//.exec(file)?.[1] ?? null;
const folderEdges = new Set<string>();
for (const edge of edges) {
  const from = serverFolder(edge.from);
  const to = serverFolder(edge.to);
  if (from && to && from !== to) folderEdges.add(`${from} → ${to}`);
}
const ties = [...folderEdges]
  .map((pair) => pair.split(' → ') as [string, string])
  .filter(([from, to]) => from < to && folderEdges.has(`${to} → ${from}`))
  .map(([from, to]) => `${from} ↔ ${to}`);
for (const tie of ties)
  if (!allowedTies.has(tie)) problems.push(`server/ folders import each other: ${tie} (move the shared piece into a folder both may import)`);

if (problems.length > 0) {
  console.error(`lint: ${problems.length} problem(s)\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `lint: ${edges.length} imports in ${new Set(edges.map((edge) => edge.from)).size} files follow the architecture; no cycles; server/ folders tied both ways: ${ties.length} (${ties.join(', ')}); money tables written only behind server/payments/, server/ledger/, server/stats/ and the seed`,
);
