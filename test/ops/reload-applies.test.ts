// A reload that says "config reloaded" applies every key it can: logging.redact on the next request line (and
// on every other log line), metrics.maxClients on the next new client.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../src/cli/serve.js';
import { DEMO_ENTRIES, DEMO_WORKBOOKS, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { rpc } from '../helpers/stack.js';
import { configDoc, memoryLog, type MemoryLog, parseMetrics, replaceFile, scrape, tempDir, waitFor, yamlOf } from '../helpers/serve-process.js';

let backend: ReferenceBackend;
let backendUrl: string;

beforeAll(async () => {
  backend = createReferenceBackend({ seed: { workbooks: [...DEMO_WORKBOOKS], entries: [...DEMO_ENTRIES] } });
  backendUrl = await backend.listen(0, '127.0.0.1');
});
afterAll(() => backend?.close());

async function start(extra: Record<string, unknown>): Promise<{ serving: Serving; log: MemoryLog; path: string }> {
  const path = join(tempDir('dlgw-reload-applies-'), 'gateway.yaml');
  writeFileSync(path, yamlOf(configDoc({ upstreamUrl: backendUrl, extra })));
  const log = memoryLog('info');
  return { serving: await serve({ configPath: path, logger: log.logger, env: {}, watch: false }), log, path };
}

const requestLine = (log: MemoryLog, id: string) =>
  waitFor(() => log.entries().find((e) => e.msg === 'request' && e.requestId === id), `the request line of ${id}`);

describe('a reload of logging.redact', () => {
  let serving: Serving;
  let log: MemoryLog;
  let path: string;
  beforeAll(async () => {
    ({ serving, log, path } = await start({}));
  });
  afterAll(() => serving?.stop());

  it('redacts the org id on the next request line once the reload added it, and stops when it is removed', async () => {
    await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', { 'x-request-id': 'redact-before', 'x-dl-org-id': 'acme' });
    expect((await requestLine(log, 'redact-before')).client).toBe('org:acme');

    replaceFile(path, yamlOf(configDoc({ upstreamUrl: backendUrl, extra: { logging: { redact: ['client'] } } })));
    expect(serving.reload()).toEqual({ ok: true });
    await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', { 'x-request-id': 'redact-after', 'x-dl-org-id': 'acme' });
    expect((await requestLine(log, 'redact-after')).client).toBe('[redacted]');
    expect(log.text()).not.toMatch(/"redact-after"[^\n]*org:acme/);

    replaceFile(path, yamlOf(configDoc({ upstreamUrl: backendUrl })));
    expect(serving.reload()).toEqual({ ok: true });
    await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', { 'x-request-id': 'redact-removed', 'x-dl-org-id': 'acme' });
    expect((await requestLine(log, 'redact-removed')).client).toBe('org:acme');
  });
});

describe('a reload of metrics.maxClients', () => {
  let serving: Serving;
  let path: string;
  beforeAll(async () => {
    ({ serving, path } = await start({ metrics: { maxClients: 500 } }));
  });
  afterAll(() => serving?.stop());

  const clients = async () =>
    parseMetrics(await scrape(serving.adminUrl!))
      .filter((s) => s.name === 'dlgw_deprecated_requests_total')
      .map((s) => s.labels.client)
      .sort();

  it('labels no new client beyond the reloaded bound; those already labelled keep their label', async () => {
    await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', { 'x-dl-org-id': 'first' });
    replaceFile(path, yamlOf(configDoc({ upstreamUrl: backendUrl, extra: { metrics: { maxClients: 2 } } })));
    expect(serving.reload()).toEqual({ ok: true });
    for (const org of ['second', 'third', 'fourth']) await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', { 'x-dl-org-id': org });
    await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', { 'x-dl-org-id': 'first' });
    expect(await clients()).toEqual(['org:first', 'org:second', 'other']);
  });
});
