// Adding a version touches one folder: a copy of the project gets the new version of docs/how-to/add-a-version.md
// (its code blocks, written as they are), the version in its calendars (config/gateway.yaml, the Kubernetes sidecar's),
// and nothing else; then the copy's
// check-contract, type check and whole test suite pass. The suite takes the head from the contract, so it runs
// there against the new head. Runs after the main suite (vitest.config.ts); the copy's run skips this file.

import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, parseDocument, type YAMLSeq } from 'yaml';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { ROOT, tempDir } from '../helpers/serve-process.js';

const run = promisify(execFile);
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Set in the copy's run, so that the copy does not copy itself again. */
const IN_COPY = 'DLGW_ONE_FOLDER_COPY';
/** Not copied: dependencies (linked instead), git's data, build, test and mutation-testing output. */
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'reports', '.stryker-tmp', 'coverage', 'test-artifacts']);

const howTo = readFileSync(join(ROOT, 'docs/how-to/add-a-version.md'), 'utf8');
/** The how-to's code blocks that name a file (```ts path): the whole text of that file. */
const files = [...howTo.matchAll(/^```ts (\S+)\n([\s\S]*?)^```$/gm)].map(([, path, text]) => ({ path: path!, text: text! }));
/** The version the how-to adds: the folder its blocks write (src/contract/v<N>/). */
const added = [...new Set(files.flatMap(({ path }) => /^src\/contract\/v(\d+)\//.exec(path)?.[1] ?? []))].map(Number);
const NEW = added[0] ?? Number.NaN;

/** The outcome of a command run in the copy: exit code and output. */
interface Ran {
  readonly code: number;
  readonly out: string;
}

/** Runs a binary of node_modules/.bin in the copy. */
async function inCopy(copy: string, bin: string, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(join(copy, 'node_modules/.bin', bin), args, {
      cwd: copy,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

interface VitestReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTotalTestSuites: number;
  testResults: { name: string; status: string; message?: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

describe.skipIf(process.env[IN_COPY] === '1')('adding a version as docs/how-to/add-a-version.md says', () => {
  let copy: string;

  beforeAll(() => {
    copy = tempDir('dlgw-one-folder-');
    const skipped = (top: string) => SKIPPED.has(top) || top.startsWith('.stryker-tmp');
    cpSync(ROOT, copy, { recursive: true, filter: (source) => !skipped(source.slice(ROOT.length).split('/').find(Boolean) ?? '') });
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(copy, 'node_modules'));
    for (const { path, text } of files) {
      mkdirSync(dirname(join(copy, path)), { recursive: true });
      writeFileSync(join(copy, path), text);
    }
    // The operator schedules the version in the copy's calendars (config/gateway.yaml and the sidecar's ConfigMap),
    // released yesterday, so it is the current one whatever day the test runs; the rest stays as shipped.
    const released = new Date(Math.floor(Date.now() / DAY_MS - 1) * DAY_MS).toISOString().slice(0, 10);
    const schedule = (text: string): string => {
      const config = parseDocument(text);
      (config.getIn(['lifecycle', 'versions']) as YAMLSeq).add(config.createNode({ version: NEW, released }));
      return config.toString();
    };
    const configPath = join(copy, 'config/gateway.yaml');
    writeFileSync(configPath, schedule(readFileSync(configPath, 'utf8')));
    const sidecarPath = join(copy, 'deploy/kubernetes/sidecar.yaml');
    const manifests = parseAllDocuments(readFileSync(sidecarPath, 'utf8'));
    const configMap = manifests.find((d) => d.get('kind') === 'ConfigMap')!;
    configMap.setIn(['data', 'gateway.yaml'], schedule(String(configMap.getIn(['data', 'gateway.yaml']))));
    writeFileSync(sidecarPath, manifests.map((d) => d.toString()).join(''));
  });

  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('adds the version after the head: a new folder and the contract index, nothing else', () => {
    // Once the shipped contract has the how-to's version, the how-to's example moves on to the next one.
    expect(added).toEqual([HEAD + 1]);
    const writable = new RegExp(`^src/contract/(v${NEW}/[a-z0-9-]+\\.ts|index\\.ts)$`);
    for (const { path } of files) expect(path).toMatch(writable);
    expect(files.map((f) => f.path)).toContain('src/contract/index.ts');
    expect(files.map((f) => f.path)).toContain(`src/contract/v${NEW}/index.ts`);
    expect(existsSync(join(ROOT, `src/contract/v${NEW}`))).toBe(false);
  });

  it('passes check-contract in the copy, with the new version', async () => {
    const { code, out } = await inCopy(copy, 'tsx', ['src/cli/main.ts', 'check-contract']);
    expect(out).toContain(`contract ok: versions ${[...VERSIONS, NEW].join(', ')},`);
    expect(code).toBe(0);
  }, 10 * MINUTE_MS);

  it('passes the type check in the copy', async () => {
    const { code, out } = await inCopy(copy, 'tsc', ['--noEmit', '-p', 'tsconfig.json']);
    expect(out).toBe('');
    expect(code).toBe(0);
  }, 10 * MINUTE_MS);

  it('passes the whole test suite in the copy, against the new head', async () => {
    const reportPath = join(copy, 'one-folder-vitest.json');
    const started = performance.now();
    const { code, out } = await inCopy(copy, 'vitest', ['run', '--reporter=json', `--outputFile=${reportPath}`], { [IN_COPY]: '1' });
    expect(existsSync(reportPath), out.slice(-4000)).toBe(true);
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as VitestReport;
    // One plain line for whoever reads the log: what the copy ran.
    console.info(`one-folder: the copy's suite at version ${NEW}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped, of ${report.numTotalTests} in ${report.testResults.length} files, ${Math.round((performance.now() - started) / 1000)} s`);
    const failed = report.testResults.flatMap((file) => [
      ...(file.status === 'failed' && file.assertionResults.every((a) => a.status !== 'failed') ? [`${file.name}: ${file.message ?? 'failed'}`] : []),
      ...file.assertionResults.filter((a) => a.status === 'failed').map((a) => `${file.name.slice(copy.length)} > ${a.fullName}: ${(a.failureMessages[0] ?? '').split('\n')[0]}`),
    ]);
    expect(failed).toEqual([]);
    expect(report.numFailedTests).toBe(0);
    // The copy ran the suite, not a handful of files: as many files as here, but for this one (skipped there).
    expect(report.numPassedTests).toBeGreaterThan(1000);
    expect(code, out.slice(-4000)).toBe(0);
  }, 60 * MINUTE_MS);
});
