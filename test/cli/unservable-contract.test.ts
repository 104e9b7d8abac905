// serve with the embedded reference backend refuses, in one line and exit 2, a contract that backend cannot serve: a
// copy of the sources whose contract gains a version above the head with a method no handler serves.

import { spawn } from 'node:child_process';
import { cpSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../helpers/calendar.js';
import { ROOT, configDoc, parseJsonLines, tempDir, yamlOf } from '../helpers/serve-process.js';

const NEXT = HEAD + 1;
const DAY_MS = 86_400_000;

/** The version above the head: the head's methods and one more, which the reference backend has no handler for. */
const nextVersion = `import { methodAdded } from '../core/contract-model/builders.js';
import { version${HEAD} as head } from './v${HEAD}/index.js';

export const nextVersion = {
  version: ${NEXT},
  methods: { ...head.methods, getWorkbookSummary: head.methods.getWorkbook },
  changes: [methodAdded('getWorkbookSummary', 'getWorkbookSummary is added.')],
};
`;

let copy: string;
let configPath: string;

beforeAll(() => {
  copy = tempDir('dlgw-unservable-');
  for (const top of ['src', 'package.json', 'tsconfig.json']) cpSync(join(ROOT, top), join(copy, top), { recursive: true });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(copy, 'node_modules'));
  writeFileSync(join(copy, 'src/contract/next-version.ts'), nextVersion);
  const indexPath = join(copy, 'src/contract/index.ts');
  const index = readFileSync(indexPath, 'utf8');
  const registered = index.replace(/versions: \[([^\]]*)\]/, 'versions: [$1, nextVersion]');
  expect(registered).not.toBe(index);
  writeFileSync(indexPath, `import { nextVersion } from './next-version.js';\n${registered}`);
  // The calendar schedules the new version, released yesterday, so the config itself is one serve takes.
  const doc = configDoc({ upstreamUrl: 'embedded' }) as { lifecycle: { versions: Record<string, unknown>[] } };
  doc.lifecycle.versions.push({ version: NEXT, released: new Date(Math.floor(Date.now() / DAY_MS - 1) * DAY_MS).toISOString().slice(0, 10) });
  configPath = join(copy, 'gateway.yaml');
  writeFileSync(configPath, yamlOf(doc));
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/** Runs the copy's `serve` to its exit. */
function serveUntilExit(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  for (const name of Object.keys(env)) if (/^(UPSTREAM_|ADMIN_|GATEWAY_CONFIG$|PORT$|HOST$)/.test(name)) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--config', configPath], { cwd: copy, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('serve with a contract the embedded reference backend cannot serve', () => {
  it('says why in one line, exits 2, prints no stack trace and never says it is listening', async () => {
    const run = await serveUntilExit();
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^dl-version-gateway serve: the API contract does not load: .*no handler for getWorkbookSummary of version ${NEXT}`));
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(2);
    const fatal = parseJsonLines(run.stdout).filter((e) => e.level === 60);
    expect(fatal).toHaveLength(1);
    expect(run.stdout).not.toMatch(/listening on|admin listener/);
  }, 60_000);
});
