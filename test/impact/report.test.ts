// The impact report of a running gateway (serve, its admin listener, the reference backend): who called what
// at which version, what later versions change for them, the filters, the CLI's table, and no credential anywhere.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/commands.js';
import { serve, type Serving } from '../../src/cli/serve.js';
import type { ImpactReport } from '../../src/core/impact/report.js';
import { DEMO_SEED, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { HEAD } from '../helpers/calendar.js';
import { configDoc, memoryLog, tempDir, yamlOf } from '../helpers/serve-process.js';
import { rpc } from '../helpers/stack.js';

const SECRET = 'Bearer impact-secret-credential';

let backend: ReferenceBackend;
let serving: Serving;

async function report(query = ''): Promise<ImpactReport> {
  const res = await fetch(`${serving.adminUrl}/impact${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ImpactReport;
}

beforeAll(async () => {
  backend = createReferenceBackend({ seed: DEMO_SEED });
  const backendUrl = await backend.listen(0, '127.0.0.1');
  const path = join(tempDir('dlgw-impact-'), 'gateway.yaml');
  writeFileSync(path, yamlOf(configDoc({ upstreamUrl: backendUrl, extra: { impact: { maxClients: 3 } } })));
  serving = await serve({ configPath: path, logger: memoryLog('silent').logger, watch: false });
  const acme = { 'x-dl-org-id': 'acme' };
  const created = await rpc(serving.url, 'createReport', { key: 'reports/marketing/impact', config: {} }, '1', acme);
  expect(created.status).toBe(200);
  expect((await rpc(serving.url, 'getReport', { reportId: created.body.id }, '1', acme)).status).toBe(200);
  expect((await rpc(serving.url, 'getEntries', { pageSize: 1 }, String(HEAD), { authorization: SECRET })).status).toBe(200);
});
afterAll(async () => {
  await serving?.stop();
  await backend?.close();
});

describe('GET /impact on the admin listener', () => {
  it('says the record is this process\'s own without Redis', async () => {
    const r = await report();
    expect(r.store.kind).toBe('memory');
    expect(r.store.note).toContain('this process only');
    expect(r.calendar.map((c) => c.version)).toContain(HEAD);
  });

  it('lists the v1 client with the changes that affect it, and its sunset', async () => {
    const r = await report('?client=org:acme');
    expect(r.clients.map((c) => c.client)).toEqual(['org:acme']);
    const [v1] = r.clients[0]!.versions;
    expect(v1).toMatchObject({ version: 1, status: 'deprecated', calls: 2 });
    expect(v1!.sunsetAt).toBe(r.calendar.find((c) => c.version === 1)!.sunsetAt);
    expect(v1!.methods.map((m) => m.method)).toEqual(['createReport', 'getReport']);
    expect(v1!.methods[0]!.paths).toEqual({ key: 1 });
    expect(v1!.affected).toContainEqual(expect.objectContaining({ version: 2, method: 'createReport', scope: 'request', path: 'key', calls: 1 }));
    expect(v1!.affected).toContainEqual(expect.objectContaining({ version: 2, method: 'getReport', scope: 'response', calls: 1 }));
    expect(Object.values(r.clients[0]!.callsPerDay).reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('names a credential\'s client by a hash, never the credential', async () => {
    const r = await report(`?version=${HEAD}`);
    expect(r.clients).toHaveLength(1);
    expect(r.clients[0]!.client).toMatch(/^cred:[0-9a-f]{12}$/);
    expect(r.clients[0]!.versions[0]!.affected).toEqual([]);
    expect(JSON.stringify(await report())).not.toContain('impact-secret');
  });

  it('filters by method, and refuses a malformed version filter', async () => {
    expect((await report('?method=getReport')).clients.map((c) => c.client)).toEqual(['org:acme']);
    expect((await fetch(`${serving.adminUrl}/impact?version=one`)).status).toBe(400);
    expect((await fetch(`${serving.adminUrl}/impact`, { method: 'POST' })).status).toBe(405);
  });

  it('is not on the public listener', async () => {
    expect((await fetch(`${serving.url}/impact`)).status).toBe(404);
  });

  it('stays within impact.maxClients, dropping the client seen longest ago and counting it', async () => {
    for (const org of ['b1', 'b2', 'b3']) {
      expect((await rpc(serving.url, 'getEntries', { pageSize: 1 }, String(HEAD), { 'x-dl-org-id': org })).status).toBe(200);
    }
    const r = await report();
    expect(r.clients.map((c) => c.client).sort()).toEqual(['org:b1', 'org:b2', 'org:b3']);
    expect(r.dropped.clients).toBeGreaterThanOrEqual(2);
  });
});

describe('the impact command', () => {
  it('prints the report as a table from the admin URL', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['impact', '--admin', serving.adminUrl!], { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out[0]).toContain('this process only');
    expect(out.some((l) => /^CLIENT\s+VERSION\s+STATUS\s+SUNSET/.test(l))).toBe(true);
    expect(out.some((l) => l.startsWith('org:b1'))).toBe(true);
  });

  it('exits 1 when the admin listener is not there, 2 on a bad version', async () => {
    const io = { out: () => {}, err: () => {} };
    expect(await runCli(['impact', '--admin', 'http://127.0.0.1:1'], io)).toBe(1);
    expect(await runCli(['impact', '--api-version', 'x'], io)).toBe(2);
  });
});
