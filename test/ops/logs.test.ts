// Structured logs: one JSON line per request with its facts; at debug level the request headers, with
// credentials and the operator's configured paths redacted.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../src/cli/serve.js';
import { DEMO_ENTRIES, DEMO_WORKBOOKS, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { rpc } from '../helpers/stack.js';
import { HEAD } from '../helpers/calendar.js';
import { configDoc, memoryLog, type MemoryLog, startServeProcess, tempDir, yamlOf } from '../helpers/serve-process.js';

let backend: ReferenceBackend;
let backendUrl: string;
const running: Serving[] = [];

beforeAll(async () => {
  backend = createReferenceBackend({ seed: { workbooks: [...DEMO_WORKBOOKS], entries: [...DEMO_ENTRIES] } });
  backendUrl = await backend.listen(0, '127.0.0.1');
});
afterAll(async () => {
  for (const s of running) await s.stop();
  await backend?.close();
});

async function startLogged(level: string, extra: Record<string, unknown> = {}): Promise<{ serving: Serving; log: MemoryLog; configPath: string }> {
  const dir = tempDir('dlgw-logs-');
  const configPath = join(dir, 'gateway.yaml');
  writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl, extra })));
  const log = memoryLog(level);
  const serving = await serve({ configPath, logger: log.logger, env: {}, watch: false });
  running.push(serving);
  return { serving, log, configPath };
}

/** The request lines of one request id (the line is written when the response closes). */
const requestLines = (log: MemoryLog, requestId: string) => log.entries().filter((e) => e.msg === 'request' && e.requestId === requestId);
const waitForRequestLine = (log: MemoryLog, requestId: string) =>
  log.waitFor((e) => e.msg === 'request' && e.requestId === requestId, `the log line of ${requestId}`, { timeoutMs: 5_000 });

describe('the request log at info level', () => {
  let serving: Serving;
  let log: MemoryLog;
  beforeAll(async () => {
    ({ serving, log } = await startLogged('info'));
  });

  it('writes one JSON line per request with requestId, versionAsked, version, method, status, durationMs and upstreamMs', async () => {
    const res = await rpc(serving.url, 'getEntries', { pageSize: 1 }, String(HEAD), { 'x-request-id': 'ops-log-v2' });
    expect(res.status).toBe(200);
    const line = await waitForRequestLine(log, 'ops-log-v2');
    expect(line).toMatchObject({ level: 30, requestId: 'ops-log-v2', versionAsked: String(HEAD), version: HEAD, method: 'getEntries', status: 200 });
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(line.durationMs).toBeGreaterThanOrEqual(0);
    expect(line.upstreamMs).toEqual(expect.any(Number));
    expect(line).not.toHaveProperty('translateMs');
    expect(line).not.toHaveProperty('error');
    expect(requestLines(log, 'ops-log-v2')).toHaveLength(1);
    // Every line of the output is JSON.
    for (const raw of log.text().split('\n').filter(Boolean)) expect(() => JSON.parse(raw)).not.toThrow();
  });

  it('adds translateMs and the caller for a translated v1 request, and `latest` is logged as asked', async () => {
    await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', { 'x-request-id': 'ops-log-v1', 'x-dl-org-id': 'acme' });
    const v1 = await waitForRequestLine(log, 'ops-log-v1');
    expect(v1).toMatchObject({ versionAsked: '1', version: 1, method: 'getEntries', status: 200, client: 'org:acme' });
    expect(v1.translateMs).toEqual(expect.any(Number));
    expect(v1.upstreamMs).toEqual(expect.any(Number));

    await rpc(serving.url, 'getEntries', { pageSize: 1 }, 'latest', { 'x-request-id': 'ops-log-latest' });
    expect(await waitForRequestLine(log, 'ops-log-latest')).toMatchObject({ versionAsked: 'latest', version: HEAD, status: 200 });
  });

  it('logs a refused request with its error code and without upstreamMs', async () => {
    const res = await rpc(serving.url, 'getEntries', { pageSize: 1 }, 'v7', { 'x-request-id': 'ops-log-bad' });
    expect(res.status).toBe(400);
    const line = await waitForRequestLine(log, 'ops-log-bad');
    expect(line).toMatchObject({ requestId: 'ops-log-bad', versionAsked: 'v7', status: 400, error: 'INVALID_API_VERSION_HEADER' });
    expect(line).not.toHaveProperty('upstreamMs');
    expect(requestLines(log, 'ops-log-bad')).toHaveLength(1);
  });

  it('gives a request without an id a fresh one, the same in the answer and the log', async () => {
    const res = await rpc(serving.url, 'getEntries', { pageSize: 1 }, '2');
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await waitForRequestLine(log, id!)).toMatchObject({ status: 200 });
  });

  it('does not log request headers below debug level', async () => {
    await rpc(serving.url, 'getEntries', { pageSize: 1 }, '2', { 'x-request-id': 'ops-log-quiet', authorization: 'Bearer quiet-token-123' });
    await waitForRequestLine(log, 'ops-log-quiet');
    expect(log.entries().some((e) => e.msg === 'request received')).toBe(false);
    expect(log.text()).not.toContain('quiet-token-123');
  });
});

describe('the request log at debug level', () => {
  const SECRET = 'Bearer sup3r-s3cret-value';

  it('logs the request headers with authorization and cookie redacted, and the secret nowhere', async () => {
    const { serving, log } = await startLogged('debug');
    await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', {
      'x-request-id': 'ops-debug-1',
      authorization: SECRET,
      cookie: 'session=cookie-s3cret',
    });
    await waitForRequestLine(log, 'ops-debug-1');
    const received = log.entries().find((e) => e.msg === 'request received' && e.requestId === 'ops-debug-1');
    expect(received).toBeDefined();
    expect(received!.headers['x-dl-api-version']).toBe('1');
    expect(received!.headers.authorization).toBe('[redacted]');
    expect(received!.headers.cookie).toBe('[redacted]');
    expect(log.text()).not.toContain('sup3r-s3cret-value');
    expect(log.text()).not.toContain('cookie-s3cret');
  });

  it('applies the logging.redact paths to the request line too, and keeps credentials out of it', async () => {
    const { serving, log } = await startLogged('info', { logging: { redact: ['client', 'versionAsked'] } });
    await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', { 'x-request-id': 'ops-line-1', authorization: SECRET });
    const line = await waitForRequestLine(log, 'ops-line-1');
    expect(line.client).toBe('[redacted]');
    expect(line.versionAsked).toBe('[redacted]');
    expect(line.version).toBe(1);
    expect(line.status).toBe(200);
    expect(log.text()).not.toContain('sup3r-s3cret-value');
  });

  it('redacts a path configured in logging.redact (headers["x-dl-secret"]) too', async () => {
    const { serving, log } = await startLogged('debug', { logging: { redact: ['headers["x-dl-secret"]'] } });
    await rpc(serving.url, 'getEntries', { pageSize: 1 }, '2', {
      'x-request-id': 'ops-debug-2',
      authorization: SECRET,
      'x-dl-secret': 'custom-s3cret-42',
    });
    await waitForRequestLine(log, 'ops-debug-2');
    const received = log.entries().find((e) => e.msg === 'request received' && e.requestId === 'ops-debug-2');
    expect(received!.headers['x-dl-secret']).toBe('[redacted]');
    expect(received!.headers.authorization).toBe('[redacted]');
    expect(log.text()).not.toContain('custom-s3cret-42');
    expect(log.text()).not.toContain('sup3r-s3cret-value');
  });

  it('redacts authorization in the output of `serve` run with LOG_LEVEL=debug', async () => {
    const dir = tempDir('dlgw-logs-cli-');
    const configPath = join(dir, 'gateway.yaml');
    writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl })));
    const gw = await startServeProcess(configPath, { LOG_LEVEL: 'debug' });
    try {
      const res = await rpc(gw.url, 'getEntries', { pageSize: 1 }, '1', { 'x-request-id': 'ops-debug-cli', authorization: SECRET });
      expect(res.status).toBe(200);
      const line = await gw.waitForLog((e) => e.msg === 'request' && e.requestId === 'ops-debug-cli', 'the request line');
      expect(line).toMatchObject({ version: 1, method: 'getEntries', status: 200, service: 'dl-version-gateway' });
      const received = gw.logs().find((e) => e.msg === 'request received' && e.requestId === 'ops-debug-cli');
      expect(received?.headers.authorization).toBe('[redacted]');
      expect(gw.output()).not.toContain('sup3r-s3cret-value');
      expect(gw.stderr()).not.toContain('sup3r-s3cret-value');
    } finally {
      await gw.kill();
    }
  }, 60_000);
});
