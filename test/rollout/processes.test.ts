// The release as an operator runs it, with separate processes on the real clock: the reference backend (`backend`)
// started alone at the new version (the contract's head, NEW), the gateway of the previous release (`serve` in a copy of
// the project whose contract ends at NEW - 1), then the gateway with the new contract and NEW's release date ahead; the
// operator then brings the release forward and shortens the old version's window by editing the config (a reload).

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { cpSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { expectProblem } from '../helpers/http.js';
import { ROOT, type ServeProcess, startServeProcess, tempDir } from '../helpers/serve-process.js';
import { rpc } from '../helpers/stack.js';

const NEW = HEAD;
const OLD = HEAD - 1;
const DAY_MS = 86_400_000;
const MIDNIGHT = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Every older version released 30 days before the next; the last one before NEW, 30 days ago. */
const releasedOf = (version: number, newRelease: number) => (version === NEW ? newRelease : MIDNIGHT - (NEW - version) * 30 * DAY_MS);
const PREVIEW_ORG = 'acme-migration';
/** Not copied into the old release's project: dependencies (linked), git's data, build and test output. */
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'reports', '.stryker-tmp', 'coverage', 'test-artifacts']);

/** A config document for `versions`, NEW released on `newRelease`, and optional explicit sunsets. */
function configText(upstreamUrl: string, versions: readonly number[], newRelease: number, sunsets: Record<number, string> = {}): string {
  return stringify({
    listen: { host: '127.0.0.1', port: 0 },
    admin: { host: '127.0.0.1', port: 0 },
    upstream: { url: upstreamUrl },
    passthrough: { enabled: false },
    lifecycle: {
      supportWindowDays: 365,
      versions: versions.map((version) => ({
        version,
        released: day(releasedOf(version, newRelease)),
        ...(version < versions.at(-1)! && { migrationGuide: `https://example.com/migrate-v${version}-to-v${version + 1}` }),
        ...(version === NEW && { preview: [`org:${PREVIEW_ORG}`] }),
        ...(sunsets[version] && { sunset: sunsets[version] }),
      })),
    },
  });
}

/** The reference backend alone, as `backend` starts it; resolves with its URL once it listens. */
function startBackend(): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'backend'], {
    cwd: ROOT,
    env: { ...process.env, BACKEND_HOST: '127.0.0.1', BACKEND_PORT: '0' },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`the backend exited (${code}) before listening: ${out}`)));
  });
}

const readyz = async (url: string) => {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const reload = async (gateway: ServeProcess) => {
  const res = await fetch(`${gateway.adminUrl}/reload`, { method: 'POST' });
  expect(res.status, await res.text()).toBe(200);
};
const getWorkbook = (url: string, header: string, headers: Record<string, string> = {}) =>
  rpc(url, 'getWorkbook', { workbookId: 'wb_demo_marketing' }, header, headers);

let backend: { child: ChildProcessWithoutNullStreams; url: string } | undefined;
let oldProject: string;
const gateways: ServeProcess[] = [];

beforeAll(async () => {
  backend = await startBackend();
  // The previous release of the gateway: this project with the head version left out of the contract.
  oldProject = tempDir('dlgw-old-release-');
  cpSync(ROOT, oldProject, { recursive: true, filter: (source) => !SKIPPED.has(source.slice(ROOT.length).split('/').find(Boolean) ?? '') });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(oldProject, 'node_modules'));
  const index = join(oldProject, 'src/contract/index.ts');
  const withoutHead = readFileSync(index, 'utf8').replace(new RegExp(`, version${NEW}\\]`), ']');
  expect(withoutHead).not.toContain(`version${NEW}]`);
  writeFileSync(index, withoutHead);
}, 60_000);

afterAll(async () => {
  for (const gateway of gateways) await gateway.kill();
  backend?.child.kill('SIGKILL');
  if (oldProject) rmSync(oldProject, { recursive: true, force: true });
});

describe(`releasing version ${NEW} with separate processes`, () => {
  const future = MIDNIGHT + 30 * DAY_MS;
  let configPath: string;
  let gateway: ServeProcess;

  it(`the backend at ${NEW} behind the previous gateway: every client 503 BACKEND_VERSION_MISMATCH, /readyz 503`, async () => {
    const path = join(tempDir('dlgw-old-config-'), 'gateway.yaml');
    writeFileSync(path, configText(backend!.url, VERSIONS.slice(0, -1), future));
    const old = await startServeProcess(path, {}, oldProject);
    gateways.push(old);
    for (const header of [...VERSIONS.slice(0, -1).map(String), 'latest']) {
      const details = expectProblem(await getWorkbook(old.url, header), 503, 'BACKEND_VERSION_MISMATCH');
      expect(details).toMatchObject({ upstreamCode: 'INVALID_API_VERSION_HEADER' });
    }
    const ready = await readyz(old.url);
    expect(ready.status).toBe(503);
    expect(String(ready.body.reason)).toMatch(new RegExp(`speaks API version ${NEW} .*contract ends at version ${OLD}$`));
  }, 60_000);

  it(`the new gateway, ${NEW} released in 30 days: latest is ${OLD}, ${NEW} only to the preview client`, async () => {
    configPath = join(tempDir('dlgw-new-config-'), 'gateway.yaml');
    writeFileSync(configPath, configText(backend!.url, VERSIONS, future));
    gateway = await startServeProcess(configPath);
    gateways.push(gateway);
    expect(await readyz(gateway.url)).toMatchObject({ status: 200, body: { backendVersion: NEW } });
    const latest = await getWorkbook(gateway.url, 'latest');
    expect(latest.headers.get('x-dl-api-version')).toBe(String(OLD));
    const refused = expectProblem(await getWorkbook(gateway.url, String(NEW)), 400, 'INVALID_API_VERSION_HEADER');
    expect(refused).toMatchObject({ reason: 'unreleased', latest: OLD });
    const preview = await getWorkbook(gateway.url, String(NEW), { 'x-dl-org-id': PREVIEW_ORG });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.headers.get('x-dl-api-version')).toBe(String(NEW));
  }, 60_000);

  it(`the operator brings the release forward to yesterday: latest is ${NEW}, ${OLD} is deprecated`, async () => {
    const yesterday = MIDNIGHT - DAY_MS;
    writeFileSync(configPath, configText(backend!.url, VERSIONS, yesterday));
    await reload(gateway);
    const latest = await getWorkbook(gateway.url, 'latest');
    expect(latest.status, JSON.stringify(latest.body)).toBe(200);
    expect(latest.headers.get('x-dl-api-version')).toBe(String(NEW));
    expect((await getWorkbook(gateway.url, String(NEW))).status).toBe(200);
    const old = await rpc(gateway.url, 'getWorkbook', { workbookId: 'wb_demo_marketing' }, String(OLD));
    expect(old.headers.get('deprecation')).toBe(`@${yesterday / 1000}`);
    expect(old.headers.get('link')).toContain(`migrate-v${OLD}-to-v${NEW}`);
  }, 60_000);

  it(`the operator ends ${OLD}'s window at ${NEW}'s release: ${OLD} answers 410 naming the guide and the version to use`, async () => {
    const yesterday = MIDNIGHT - DAY_MS;
    writeFileSync(configPath, configText(backend!.url, VERSIONS, yesterday, { [OLD]: day(yesterday) }));
    await reload(gateway);
    const details = expectProblem(await getWorkbook(gateway.url, String(OLD)), 410, 'API_VERSION_SUNSET');
    expect(details).toMatchObject({ version: OLD, latest: NEW, migrationGuide: `https://example.com/migrate-v${OLD}-to-v${NEW}` });
    expect((await getWorkbook(gateway.url, 'latest')).headers.get('x-dl-api-version')).toBe(String(NEW));
  }, 60_000);
});
