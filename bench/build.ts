// Transpiles src/ and the benchmark's child-process entry points to plain JavaScript in a temporary folder,
// so the children run the way production does (`node dist/...`), without tsx: under tsx every process also
// carries the loader's own thread and V8 isolate (about +35 MB of RSS), and esbuild's keepNames adds a
// `__name(...)` call for every closure created on the hot path.
//
// Per-file transpilation (ts.transpileModule) matches tsc's output here: the project compiles with
// isolatedModules and verbatimModuleSyntax. Type errors are not checked (run `npm run typecheck`).

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from './control.js';

/** The benchmark files that run in child processes (and what they import from bench/ and test/helpers/). */
const BENCH_ENTRIES = [
  'bench/control.ts',
  'bench/backend-process.ts',
  'bench/bare-proxy.ts',
  'bench/hpm-proxy.ts',
  'bench/gateway-process.ts',
  'test/helpers/calendar.ts',
];

function tsFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFilesUnder(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

export interface Build {
  /** The folder holding src/ and bench/ as .js, with a package.json ("type": "module") and node_modules linked. */
  readonly dir: string;
  readonly files: number;
  readonly ms: number;
  cleanup(): void;
}

/** `root`: the checkout to build (another one for `--compare`); entry points it does not have are skipped. */
export function transpileForBench(root: string = PROJECT_ROOT): Build {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'dlgw-bench-build-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const entries = BENCH_ENTRIES.map((f) => join(root, f)).filter((f) => existsSync(f));
    const sources = [...tsFilesUnder(join(root, 'src')), ...entries];
    for (const source of sources) {
      const rel = relative(root, source);
      const result = ts.transpileModule(readFileSync(source, 'utf8'), {
        fileName: rel,
        reportDiagnostics: true,
        compilerOptions: {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ES2022,
          esModuleInterop: true,
          verbatimModuleSyntax: true,
          isolatedModules: true,
          sourceMap: false,
        },
      });
      const errors = (result.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
      if (errors.length) {
        throw new Error(`${rel}: ${errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')).join('; ')}`);
      }
      const target = join(dir, rel.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, result.outputText);
    }
    return {
      dir,
      files: sources.length,
      ms: performance.now() - started,
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
