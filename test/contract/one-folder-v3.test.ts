// Adding a version touches one folder: a copy of the project gets the version 3 of docs/how-to/add-a-version.md
// (its code blocks, written as they are), v3 in its config's calendar, and nothing else; then the copy's
// check-contract and type check pass, and its gateway in front of its reference backend serves v1, v2 and v3
// clients on reports, v2 now deprecated.

import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, type YAMLSeq } from 'yaml';
import { HEAD } from '../helpers/calendar.js';
import { ROOT, startServeProcess, tempDir, type ServeProcess } from '../helpers/serve-process.js';
import { rpc } from '../helpers/stack.js';

const run = promisify(execFile);
const DAY_MS = 86_400_000;
/** Not copied: dependencies (linked instead), git's data, build and mutation-testing output. */
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'reports', '.stryker-tmp', 'coverage']);
/** What the how-to's example may write: the new folder and the one line registering it. */
const WRITABLE = /^src\/contract\/(v3\/[a-z0-9-]+\.ts|index\.ts)$/;

const howTo = readFileSync(join(ROOT, 'docs/how-to/add-a-version.md'), 'utf8');
/** The how-to's code blocks that name a file (```ts path): the whole text of that file. */
const files = [...howTo.matchAll(/^```ts (\S+)\n([\s\S]*?)^```$/gm)].map(([, path, text]) => ({ path: path!, text: text! }));

const copy = tempDir('dlgw-one-folder-');
/** v3's release: yesterday, so v3 is current and v2 deprecated whatever day the test runs. */
const v3Released = new Date(Math.floor(Date.now() / DAY_MS - 1) * DAY_MS).toISOString().slice(0, 10);
let v1Served = false;
let gateway: ServeProcess | undefined;

/** Runs a binary of node_modules/.bin in the copy; resolves with its exit code and output. */
async function inCopy(bin: string, args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(join(copy, 'node_modules/.bin', bin), args, { cwd: copy, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

beforeAll(() => {
  cpSync(ROOT, copy, { recursive: true, filter: (source) => !SKIPPED.has(source.slice(ROOT.length).split('/').find(Boolean) ?? '') });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(copy, 'node_modules'));
  for (const { path, text } of files) {
    mkdirSync(dirname(join(copy, path)), { recursive: true });
    writeFileSync(join(copy, path), text);
  }
  // The operator schedules v3 in the copy's config file; the rest of its calendar stays as shipped.
  const configPath = join(copy, 'config/gateway.yaml');
  const config = parseDocument(readFileSync(configPath, 'utf8'));
  const versions = config.getIn(['lifecycle', 'versions']) as YAMLSeq;
  versions.add(config.createNode({ version: 3, released: v3Released }));
  writeFileSync(configPath, config.toString());
  // The shipped calendar retires v1 at v2's release plus the window: past that, v1 answers 410 (see below).
  const { supportWindowDays, versions: calendar } = config.toJS().lifecycle as { supportWindowDays: number; versions: { version: number; released: string | Date }[] };
  const v2Released = new Date(calendar.find((v) => v.version === 2)!.released).getTime();
  v1Served = Date.now() < v2Released + supportWindowDays * DAY_MS;
});

afterAll(async () => {
  await gateway?.kill();
  rmSync(copy, { recursive: true, force: true });
});

describe('adding version 3 as docs/how-to/add-a-version.md says', () => {
  it('writes only the new folder and the contract index, on a contract that ends at version 2', () => {
    // The how-to's example adds version 3: once the shipped contract has one, the example moves to the next.
    expect(HEAD).toBe(2);
    expect(files.map((f) => f.path).sort()).toEqual(['src/contract/index.ts', 'src/contract/v3/index.ts', 'src/contract/v3/reports-settings.ts']);
    for (const { path } of files) expect(path).toMatch(WRITABLE);
  });

  it('passes check-contract in the copy', async () => {
    const { code, out } = await inCopy('tsx', ['src/cli/main.ts', 'check-contract']);
    expect(out).toMatch(/contract ok: versions 1, 2, 3,/);
    expect(code).toBe(0);
  }, 120_000);

  it('passes the type check in the copy', async () => {
    const { code, out } = await inCopy('tsc', ['--noEmit', '-p', 'tsconfig.json']);
    expect(out).toBe('');
    expect(code).toBe(0);
  }, 240_000);
});

describe('the copy\'s gateway in front of its reference backend', () => {
  let url: string;
  beforeAll(async () => {
    // config/gateway.yaml says upstream "embedded": the copy's reference backend, in the gateway's process.
    gateway = await startServeProcess(
      join(copy, 'config/gateway.yaml'),
      { HOST: '127.0.0.1', PORT: '0', ADMIN_HOST: '127.0.0.1', ADMIN_PORT: '0' },
      copy,
    );
    url = gateway.url;
  }, 60_000);

  it('forwards version 3, which the backend speaks, and resolves latest to it', async () => {
    expect(gateway!.logs().find((e) => /listening on/.test(String(e.msg)))?.head).toBe(3);
    const answer = await rpc(url, 'getWorkbook', { workbookId: 'wb_demo_sandbox' }, 'latest');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-dl-api-version')).toBe('3');
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
  });

  it('serves a v3 client the renamed field, undeprecated', async () => {
    const created = await rpc(url, 'createReport', { workbookId: 'wb_demo_sandbox', settings: { chart: 'bar' } }, '3');
    expect(created.status).toBe(200);
    expect(created.headers.get('deprecation')).toBeNull();
    expect(created.body).toMatchObject({ workbookId: 'wb_demo_sandbox', settings: { chart: 'bar' }, version: 3 });
    expect(created.body).not.toHaveProperty('config');
    const read = await rpc(url, 'getReport', { reportId: created.body.id }, '3');
    expect(read.body).toEqual(created.body);
    // The v2 name is no v3 field: the gateway refuses it.
    expect((await rpc(url, 'createReport', { workbookId: 'wb_demo_sandbox', config: {}, settings: {} }, '3')).status).toBe(400);
  });

  it('translates a v2 client\'s requests and answers, with v2 deprecated', async () => {
    const created = await rpc(url, 'createReport', { workbookId: 'wb_demo_sandbox', config: { chart: 'pie' } }, '2');
    expect(created.status).toBe(200);
    expect(created.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(created.headers.get('sunset')).not.toBeNull();
    expect(created.body).toMatchObject({ config: { chart: 'pie' }, version: 2 });
    expect(created.body).not.toHaveProperty('settings');
    // Stored in the v3 shape: the request was translated up.
    const atV3 = await rpc(url, 'getReport', { reportId: created.body.id }, '3');
    expect(atV3.body).toMatchObject({ settings: { chart: 'pie' }, version: 2 });
    expect(atV3.body).not.toHaveProperty('config');
    const updated = await rpc(url, 'updateReport', { reportId: created.body.id, config: { chart: 'line' } }, '2');
    expect(updated.status).toBe(200);
    expect(updated.body.config).toEqual({ chart: 'line' });
    expect((await rpc(url, 'getReport', { reportId: created.body.id }, '3')).body.settings).toEqual({ chart: 'line' });
  });

  it('refuses a v2 client a report saved at v3: reads by the gateway\'s guard, writes by the backend\'s, nothing changed', async () => {
    const created = await rpc(url, 'createReport', { workbookId: 'wb_demo_sandbox', settings: { chart: 'map' } }, '3');
    const read = await rpc(url, 'getReport', { reportId: created.body.id }, '2');
    expect(read.status).toBe(409);
    expect(read.body).toMatchObject({ code: 'UNSUPPORTED_OBJECT_VERSION', details: { objectType: 'report', objectVersion: 3, requestedVersion: 2 } });
    const write = await rpc(url, 'updateReport', { reportId: created.body.id, config: { chart: 'pie' } }, '2');
    expect(write.status).toBe(409);
    expect(write.body).toMatchObject({ code: 'UNSUPPORTED_OBJECT_VERSION', details: { objectVersion: 3, requestedVersion: 2 } });
    expect((await rpc(url, 'getReport', { reportId: created.body.id }, '3')).body).toEqual(created.body);
  });

  it('translates a v1 client through both versions (while the shipped calendar serves v1)', async () => {
    const created = await rpc(url, 'createReport', { key: 'legacy/finance/q1', config: { chart: 'bar' } }, '1');
    if (!v1Served) {
      expect(created.status).toBe(410);
      return;
    }
    expect(created.status).toBe(200);
    expect(created.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(created.body).toMatchObject({ key: 'legacy/finance/q1', config: { chart: 'bar' }, version: 1 });
    expect(created.body).not.toHaveProperty('settings');
    expect(created.body).not.toHaveProperty('workbookId');
    const atV3 = await rpc(url, 'getReport', { reportId: created.body.id }, '3');
    expect(atV3.body).toMatchObject({ workbookId: 'wb_demo_sandbox', legacyKey: 'legacy/finance/q1', settings: { chart: 'bar' } });
    const atV2 = await rpc(url, 'getReport', { reportId: created.body.id }, '2');
    expect(atV2.body).toMatchObject({ workbookId: 'wb_demo_sandbox', config: { chart: 'bar' } });
    expect(atV2.body).not.toHaveProperty('settings');
    const atV1 = await rpc(url, 'getReport', { reportId: created.body.id }, '1');
    expect(atV1.body).toEqual(created.body);
  });
});
