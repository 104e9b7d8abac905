// The admin listener's Prometheus metrics: traffic by version/method/status, latencies, translation time,
// upstream errors, config reloads and who still calls deprecated versions (never the credential itself).

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../src/cli/serve.js';
import { parseConfig } from '../../src/config/load.js';
import { DEMO_ENTRIES, DEMO_WORKBOOKS, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { type FaultUpstream, startFaultUpstream } from '../helpers/fault-upstream.js';
import { CALENDAR, rpc } from '../helpers/stack.js';
import { startRedis } from '../helpers/redis.js';
import { configDoc, liveCalendar, memoryLog, parseMetrics, sampleValue, scrape, tempDir, waitFor, yamlOf } from '../helpers/serve-process.js';
import { HEAD } from '../helpers/calendar.js';

/** The head version as a header value and a metric label. */
const H = String(HEAD);

let backend: ReferenceBackend;
let refused: FaultUpstream;
let serving: Serving;
let configPath: string;

async function startServing(upstreamUrl: string) {
  const dir = tempDir('dlgw-metrics-');
  const path = join(dir, 'gateway.yaml');
  writeFileSync(path, yamlOf(configDoc({ upstreamUrl })));
  return { path, serving: await serve({ configPath: path, logger: memoryLog('info').logger, env: {}, watch: false }) };
}

beforeAll(async () => {
  backend = createReferenceBackend({ seed: { workbooks: [...DEMO_WORKBOOKS], entries: [...DEMO_ENTRIES] } });
  const backendUrl = await backend.listen(0, '127.0.0.1');
  refused = await startFaultUpstream('refuse');
  ({ path: configPath, serving } = await startServing(backendUrl));
});
afterAll(async () => {
  await serving?.stop();
  await backend?.close();
  await refused?.close();
});

const metrics = () => scrape(serving.adminUrl!);

describe('the admin listener', () => {
  it('serves /metrics as Prometheus text', async () => {
    const res = await fetch(`${serving.adminUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^# HELP dlgw_requests_total /m);
    expect(text).toMatch(/^# TYPE dlgw_requests_total counter$/m);
    expect(text).toMatch(/^# TYPE dlgw_request_duration_seconds histogram$/m);
  });

  it('binds 127.0.0.1 unless the config says otherwise', async () => {
    const minimal = parseConfig({ lifecycle: CALENDAR });
    expect(minimal.config.admin.host).toBe('127.0.0.1');
    expect(minimal.config.admin.enabled).toBe(true);
    expect(serving.adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('is not the public listener: /metrics there answers 404', async () => {
    const res = await fetch(`${serving.url}/metrics`);
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toMatch(/dlgw_requests_total/);
  });
});

describe('request metrics', () => {
  it('count requests by version, method and status', async () => {
    const before = sampleValue(await metrics(), 'dlgw_requests_total', { version: H, method: 'getEntries', status: '200' }) ?? 0;
    for (let i = 0; i < 3; i++) expect((await rpc(serving.url, 'getEntries', { pageSize: 1 }, H)).status).toBe(200);
    expect((await rpc(serving.url, 'getEntries', { pageSize: 0 }, H)).status).toBe(400);
    const text = await metrics();
    expect(sampleValue(text, 'dlgw_requests_total', { version: H, method: 'getEntries', status: '200' })).toBe(before + 3);
    expect(sampleValue(text, 'dlgw_requests_total', { version: H, method: 'getEntries', status: '400' })).toBe(1);
  });

  it('observe the request duration in a histogram by version and method', async () => {
    const text = await metrics();
    const labels = { version: H, method: 'getEntries' };
    const count = sampleValue(text, 'dlgw_request_duration_seconds_count', labels);
    expect(count).toBeGreaterThanOrEqual(4);
    expect(sampleValue(text, 'dlgw_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(count);
    expect(sampleValue(text, 'dlgw_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    // Buckets are cumulative.
    const buckets = parseMetrics(text).filter((s) => s.name === 'dlgw_request_duration_seconds_bucket' && s.labels.method === 'getEntries' && s.labels.version === H);
    expect(buckets.length).toBeGreaterThan(5);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
    expect(sampleValue(text, 'dlgw_upstream_duration_seconds_count', labels)).toBeGreaterThanOrEqual(3);
  });

  it('observe the translation time of a v1 createReport', async () => {
    const res = await rpc(serving.url, 'createReport', { key: 'legacy/finance/q1', config: {} }, '1', { 'x-dl-org-id': 'acme' });
    expect(res.status).toBe(200);
    const text = await metrics();
    expect(sampleValue(text, 'dlgw_translation_duration_seconds_count', { version: '1', method: 'createReport' })).toBe(1);
    expect(sampleValue(text, 'dlgw_translation_duration_seconds_bucket', { version: '1', method: 'createReport', le: '+Inf' })).toBe(1);
    // Nothing is translated at the head version.
    expect(sampleValue(text, 'dlgw_translation_duration_seconds_count', { version: H, method: 'getEntries' })).toBeUndefined();
  });

  it('label a method name the contract does not know as "unknown"', async () => {
    const res = await rpc(serving.url, 'noSuchMethodAtAll', {}, H);
    expect(res.status).toBe(404);
    const text = await metrics();
    expect(sampleValue(text, 'dlgw_requests_total', { method: 'unknown', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/noSuchMethodAtAll/);
  });

  // A known method refused before its version resolves keeps its own name as label.
  it('label a known method refused for a missing version header with its own name', async () => {
    const res = await rpc(serving.url, 'getWorkbook', { workbookId: 'wb_x' }, null);
    expect(res.status).toBe(400);
    const text = await metrics();
    expect(sampleValue(text, 'dlgw_requests_total', { method: 'getWorkbook', status: '400' })).toBe(1);
  });
});

describe('deprecated-version traffic by client', () => {
  it('counts v1 calls with x-dl-org-id: acme as client="org:acme"', async () => {
    const before = sampleValue(await metrics(), 'dlgw_deprecated_requests_total', { version: '1', client: 'org:acme' }) ?? 0;
    expect((await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', { 'x-dl-org-id': 'acme' })).status).toBe(200);
    expect((await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', { 'x-dl-org-id': 'acme' })).status).toBe(200);
    expect(sampleValue(await metrics(), 'dlgw_deprecated_requests_total', { version: '1', client: 'org:acme' })).toBe(before + 2);
  });

  it('counts v1 calls with only a bearer credential as client="cred:<12 hex>", never the credential', async () => {
    const authorization = 'Bearer s3cret';
    expect((await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1', { authorization })).status).toBe(200);
    const text = await metrics();
    const expected = `cred:${createHash('sha256').update(authorization).digest('hex').slice(0, 12)}`;
    expect(expected).toMatch(/^cred:[0-9a-f]{12}$/);
    expect(sampleValue(text, 'dlgw_deprecated_requests_total', { version: '1', client: expected })).toBe(1);
    expect(text).not.toContain('s3cret');
  });

  it('does not count the current version', async () => {
    expect((await rpc(serving.url, 'getEntries', { pageSize: 1 }, H, { 'x-dl-org-id': 'current-only' })).status).toBe(200);
    expect(await metrics()).not.toContain('org:current-only');
  });
});

describe('config reload metrics', () => {
  it('start at zero and count successes and failures', async () => {
    const text = await metrics();
    const success = sampleValue(text, 'dlgw_config_reloads_total', { result: 'success' });
    const failure = sampleValue(text, 'dlgw_config_reloads_total', { result: 'failure' });
    expect(success).toBe(0);
    expect(failure).toBe(0);

    const good = yamlOf(configDoc({ upstreamUrl: serving.gateway.runtime().upstreamUrl, v1Sunset: liveCalendar().laterSunset }));
    writeFileSync(configPath, good);
    expect(serving.reload().ok).toBe(true);
    writeFileSync(configPath, 'lifecycle: [oops\n');
    expect(serving.reload().ok).toBe(false);
    const after = await metrics();
    expect(sampleValue(after, 'dlgw_config_reloads_total', { result: 'success' })).toBe(1);
    expect(sampleValue(after, 'dlgw_config_reloads_total', { result: 'failure' })).toBe(1);
  });
});

describe('the Redis connection gauge', () => {
  // Absent without cache.redis, so that an alert on dlgw_cache_redis_connected == 0 never fires where no Redis is meant to be.
  it('is absent without cache.redis, 1 once a reload connects to Redis, and absent again when a reload removes it', async () => {
    const redis = await startRedis();
    const { path, serving: own } = await startServing(serving.gateway.runtime().upstreamUrl);
    try {
      const gauge = async () => sampleValue(await scrape(own.adminUrl!), 'dlgw_cache_redis_connected');
      expect(await gauge()).toBeUndefined();
      writeFileSync(path, yamlOf(configDoc({ upstreamUrl: own.gateway.runtime().upstreamUrl, extra: { cache: { redis: { url: redis.url } } } })));
      expect(own.reload().ok).toBe(true);
      await waitFor(async () => (await gauge()) === 1, 'the Redis connection');
      writeFileSync(path, yamlOf(configDoc({ upstreamUrl: own.gateway.runtime().upstreamUrl })));
      expect(own.reload().ok).toBe(true);
      expect(await gauge()).toBeUndefined();
    } finally {
      await own.stop();
      await redis.dispose();
    }
  });
});

describe('upstream error metrics', () => {
  let down: Serving | undefined;
  afterAll(() => down?.stop());

  it('count a refused upstream as code="UPSTREAM_UNAVAILABLE"', async () => {
    ({ serving: down } = await startServing(refused.url));
    const res = await rpc(down.url, 'getEntries', { pageSize: 1 }, H);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('UPSTREAM_UNAVAILABLE');
    const text = await scrape(down.adminUrl!);
    expect(sampleValue(text, 'dlgw_upstream_errors_total', { code: 'UPSTREAM_UNAVAILABLE' })).toBe(1);
    expect(sampleValue(text, 'dlgw_upstream_errors_total', { code: 'UPSTREAM_TIMEOUT' })).toBeUndefined();
    expect(sampleValue(text, 'dlgw_requests_total', { version: H, method: 'getEntries', status: '502' })).toBe(1);
  });
});
