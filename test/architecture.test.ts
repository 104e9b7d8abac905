import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The layering of src/: the versioning core is pure (zod and itself; no HTTP, I/O, logging, caches or
// clock), the shipped contract is written in the core's terms only, and no two folders import each other.
const src = new URL('../src', import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });

/** Every module a source names: imports (type-only too), `export … from` re-exports, side-effect and dynamic imports. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
    found.push((m[1] ?? m[2] ?? m[3]) as string);
  }
  return found;
}

interface Source {
  /** Relative to src/, e.g. `core/contract-model/load.ts`. */
  readonly path: string;
  readonly text: string;
  /** The modules it names: relative ones resolved to paths under src/ (`core/errors.js`), packages as written. */
  readonly imports: readonly string[];
  /** The relative ones among them. */
  readonly local: readonly string[];
}

const sources: Source[] = files(src).map((abs) => {
  const text = readFileSync(abs, 'utf8');
  const named = specifiers(text);
  const local = named.filter((spec) => spec.startsWith('.')).map((spec) => relative(src, join(dirname(abs), spec)));
  return { path: relative(src, abs), text, imports: [...local, ...named.filter((spec) => !spec.startsWith('.'))], local };
});
const under = (folder: string) => sources.filter((s) => s.path.startsWith(`${folder}/`));

describe('the import scanner', () => {
  it('sees imports, type imports, re-exports and dynamic imports', () => {
    const text = [
      "import { a } from './a.js';",
      "import type {\n  B,\n  C,\n} from '../b.js';",
      "export { d } from './d.js';",
      "export * from './e.js';",
      "export type { F } from './f.js';",
      "import './g.js';",
      "const h = await import('./h.js');",
      "export const fieldRenamed = (target: Target, from: string): X => ({ kind: 'x' });",
    ].join('\n');
    expect(specifiers(text)).toEqual(['./a.js', '../b.js', './d.js', './e.js', './f.js', './g.js', './h.js']);
  });
});

describe('src/core', () => {
  const core = under('core');

  it('holds the versioning core', () => {
    expect(core.length).toBeGreaterThan(10);
  });

  it('imports only zod and its own modules', () => {
    for (const { path, imports } of core) {
      for (const spec of imports) expect(spec.startsWith('core/') || spec === 'zod', `${path} imports ${spec}`).toBe(true);
    }
  });

  it('never reads the clock itself', () => {
    for (const { path, text } of core) {
      expect(/Date\.now\(|new Date\(\)|performance\.now\(/.test(text), `${path} reads the clock`).toBe(false);
    }
  });
});

/** The contract's imports outside the rule, still known; this list may only shrink. The page walk hashes the query for its cache key. */
const KNOWN_CONTRACT_IMPORTS = [['contract/v2/entries-page-token.ts', 'node:crypto']];

describe('src/contract', () => {
  const contract = under('contract');

  it('holds the shipped contract', () => {
    expect(contract.length).toBeGreaterThan(5);
  });

  it('imports only the core, zod and its own modules', () => {
    for (const { path, imports } of contract) {
      for (const spec of imports) {
        const allowed = spec.startsWith('core/') || spec.startsWith('contract/') || spec === 'zod' || KNOWN_CONTRACT_IMPORTS.some(([p, s]) => p === path && s === spec);
        expect(allowed, `${path} imports ${spec}`).toBe(true);
      }
    }
  });

  it('still makes each known exception (delete it from KNOWN_CONTRACT_IMPORTS once it is gone)', () => {
    for (const [path, spec] of KNOWN_CONTRACT_IMPORTS) expect(contract.find((s) => s.path === path)?.imports, `${path} → ${spec}`).toContain(spec);
  });
});

/** Folder cycles still known, each to be removed by work under way; this list may only shrink. */
const KNOWN_CYCLES: string[][] = [];

/** The strongly connected components (more than one folder) of the folder graph: Tarjan's algorithm. */
function folderCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('the folders of src/', () => {
  const folderOf = (path: string) => dirname(path);
  const edges = new Map<string, Set<string>>();
  const why = new Map<string, string>();
  for (const { path, local } of sources) {
    for (const spec of local) {
      const from = folderOf(path);
      const to = folderOf(spec);
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
      why.set(`${from} → ${to}`, `${path} imports ${spec}`);
    }
  }

  it('finds the folder cycle in a graph that has one, and none in one that has none', () => {
    const graph = (pairs: [string, string][]) => {
      const g = new Map<string, Set<string>>();
      for (const [a, b] of pairs) g.set(a, (g.get(a) ?? new Set()).add(b));
      return g;
    };
    expect(folderCycles(graph([['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd']]))).toEqual([['a', 'b', 'c']]);
    expect(folderCycles(graph([['a', 'b'], ['b', 'c'], ['a', 'c']]))).toEqual([]);
  });

  it('import one another in one direction only: no cycle between folders', () => {
    const cycles = folderCycles(edges).filter((c) => !KNOWN_CYCLES.some((k) => k.join() === c.join()));
    const explain = (cycle: string[]) =>
      [...why].filter(([edge]) => cycle.some((a) => cycle.some((b) => a !== b && edge === `${a} → ${b}`))).map(([, reason]) => reason);
    expect(cycles.map((c) => ({ cycle: c.join(' ↔ '), because: explain(c) }))).toEqual([]);
  });

  it('still have each known cycle (delete it from KNOWN_CYCLES once it is gone)', () => {
    const cycles = folderCycles(edges).map((c) => c.join());
    for (const known of KNOWN_CYCLES) expect(cycles, known.join(' ↔ ')).toContain(known.join());
  });
});

/**
 * The rooms of src/ and what each may import besides itself and packages, read from the table of
 * docs/architecture.md (its first column names the room, its last the rooms it may import); cli/ may import anything.
 */
const page = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8');
const ROOMS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  page
    .split('\n')
    .filter((line) => /^\| `[a-z-]+(?:\/[a-z-]+)?\/` \|/.test(line))
    .map((line) => {
      const cells = line.split(' | ');
      const names = (cell: string) => [...cell.matchAll(/`([a-z/-]+?)\/?`/g)].map((m) => m[1] as string);
      return [names(cells[0] as string)[0] as string, names(cells[cells.length - 1] as string)];
    }),
);

/** The room a path under src/ belongs to: `edge/<folder>` inside src/edge, else the top folder. */
function roomOf(path: string): string {
  const [top, next] = path.split('/');
  return top === 'edge' && next !== undefined && !next.endsWith('.ts') && !next.endsWith('.js') ? `edge/${next}` : (top as string);
}

describe('the rooms of src/ (docs/architecture.md)', () => {
  it('names the room of a path', () => {
    expect(roomOf('edge/rpc/handler.ts')).toBe('edge/rpc');
    expect(roomOf('core/contract-model/load.js')).toBe('core');
    expect(roomOf('adapters/cache/redis-link.ts')).toBe('adapters');
    expect(roomOf('edge/loose.ts')).toBe('edge');
  });

  it('are read from the page: every room with the rooms it may import', () => {
    expect(ROOMS.core).toEqual([]);
    expect(ROOMS['edge/rpc']).toEqual(['core', 'config', 'ports', 'edge/http']);
    expect(Object.keys(ROOMS).length).toBeGreaterThan(10);
  });

  it('names only files that exist', () => {
    const named = [...page.matchAll(/`((?:[a-z-]+\/)*[a-z-]+\.ts)`/g)].map((m) => m[1] as string);
    expect(named.length).toBeGreaterThan(15);
    const known = new Set(sources.map((s) => s.path));
    const missing = named.filter((name) => !known.has(name) && !sources.some((s) => s.path.endsWith(`/${name}`)) && !name.startsWith('test/'));
    expect(missing).toEqual([]);
  });

  it('has every folder in the table (cli aside), and nothing loose in src/edge', () => {
    const rooms = new Set(sources.map((s) => roomOf(s.path)));
    rooms.delete('cli');
    expect([...rooms].filter((room) => !(room in ROOMS))).toEqual([]);
  });

  it('import only the rooms the table lets them', () => {
    const breaches: string[] = [];
    for (const { path, local } of sources) {
      const from = roomOf(path);
      if (from === 'cli') continue;
      for (const spec of local) {
        const to = roomOf(spec);
        if (to !== from && !(ROOMS[from] ?? []).includes(to)) breaches.push(`${path} imports ${spec} (${from} → ${to})`);
      }
    }
    expect(breaches).toEqual([]);
  });

  it('ports hold types only: type imports, and no value exported', () => {
    for (const { path, text } of under('ports')) {
      for (const line of text.split('\n')) {
        expect(/^import (?!type )/.test(line), `${path}: ${line}`).toBe(false);
        expect(/^export (?:const|let|var|function|class|enum|default)\b/.test(line), `${path}: ${line}`).toBe(false);
      }
    }
  });
});

/** Functions longer than this many lines, where the request path and its wiring live, fail the check. */
const MAX_FUNCTION_LINES = 60;

/** Every function, arrow function and method of `text` with its first line and length in lines. */
function functionLengths(path: string, text: string): { name: string; line: number; lines: number }[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; line: number; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node)) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = (node as { name?: ts.Node }).name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
      found.push({ name: named?.getText(file) ?? '(anonymous)', line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('functions', () => {
  it('are measured in lines', () => {
    const text = ['function a() {', '  return 1;', '}', 'const b = () =>', '  2;'].join('\n');
    expect(functionLengths('x.ts', text)).toEqual([
      { name: 'a', line: 1, lines: 3 },
      { name: 'b', line: 4, lines: 2 },
    ]);
  });

  it(`are at most ${MAX_FUNCTION_LINES} lines everywhere in src/`, () => {
    const long = sources.flatMap(({ path, text }) =>
      functionLengths(path, text).filter((f) => f.lines > MAX_FUNCTION_LINES).map((f) => `${path}:${f.line} ${f.name} (${f.lines} lines)`),
    );
    expect(long).toEqual([]);
  });
});
