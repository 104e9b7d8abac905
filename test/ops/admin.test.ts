// The admin listener: a wrong method is 405 with Allow, POST /reload needs the token when one is configured,
// process metrics carry prom-client's standard names, and every log line carries the pid.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/cli/logger.js';
import { serve, type Serving } from '../../src/cli/serve.js';
import { createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { configDoc, memoryLog, parseJsonLines, parseMetrics, scrape, tempDir, yamlOf } from '../helpers/serve-process.js';

let backend: ReferenceBackend;
let backendUrl: string;
const running: Serving[] = [];

beforeAll(async () => {
  backend = createReferenceBackend();
  backendUrl = await backend.listen(0, '127.0.0.1');
});
afterAll(async () => {
  for (const s of running) await s.stop();
  await backend?.close();
});

async function start(env: Record<string, string> = {}, extra: Record<string, unknown> = {}): Promise<Serving> {
  const path = join(tempDir('dlgw-admin-'), 'gateway.yaml');
  writeFileSync(path, yamlOf(configDoc({ upstreamUrl: backendUrl, extra })));
  const serving = await serve({ configPath: path, logger: memoryLog('silent').logger, env, watch: false });
  running.push(serving);
  return serving;
}

describe('the admin listener without a token (loopback)', () => {
  let serving: Serving;
  beforeAll(async () => {
    serving = await start();
  });

  it('answers GET /reload with 405 and Allow: POST, and reloads nothing', async () => {
    const before = await scrape(serving.adminUrl!);
    const res = await fetch(`${serving.adminUrl}/reload`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    const after = await scrape(serving.adminUrl!);
    const attempts = (text: string) => parseMetrics(text).filter((s) => s.name === 'dlgw_config_reloads_total').reduce((n, s) => n + s.value, 0);
    expect(attempts(after)).toBe(attempts(before));
  });

  it('answers POST /metrics with 405 and Allow: GET, HEAD; an unknown path stays 404', async () => {
    const res = await fetch(`${serving.adminUrl}/metrics`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect((await fetch(`${serving.adminUrl}/nothing`)).status).toBe(404);
  });

  it('reloads on POST /reload without credentials', async () => {
    expect((await fetch(`${serving.adminUrl}/reload`, { method: 'POST' })).status).toBe(200);
  });

  it("exposes process metrics under prom-client's standard names, not prefixed", async () => {
    const names = new Set(parseMetrics(await scrape(serving.adminUrl!)).map((s) => s.name));
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(names, name).toContain(name);
    }
    expect([...names].filter((n) => /^dlgw_(process|nodejs)_/.test(n))).toEqual([]);
  });
});

describe('the admin listener with a token', () => {
  let serving: Serving;
  let tokenFile: string;
  beforeAll(async () => {
    tokenFile = join(tempDir('dlgw-admin-token-'), 'token');
    writeFileSync(tokenFile, 'tok-123\n');
    // Bound beyond loopback, as the Kubernetes sidecar does: it starts only because a token is configured.
    serving = await start({ ADMIN_TOKEN_FILE: tokenFile }, { admin: { host: '0.0.0.0', port: 0 } });
  });

  it('refuses POST /reload without the token, or with another, with 401 and WWW-Authenticate', async () => {
    const url = serving.adminUrl!.replace('0.0.0.0', '127.0.0.1');
    for (const headers of [{}, { authorization: 'Bearer tok-124' }, { authorization: 'Basic dG9rLTEyMw==' }] as Record<string, string>[]) {
      const res = await fetch(`${url}/reload`, { method: 'POST', headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
    const ok = await fetch(`${url}/reload`, { method: 'POST', headers: { authorization: 'Bearer tok-123' } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });
  });

  it('takes a rotated token at the next reload', async () => {
    const url = serving.adminUrl!.replace('0.0.0.0', '127.0.0.1');
    writeFileSync(tokenFile, 'tok-456\n');
    expect((await fetch(`${url}/reload`, { method: 'POST', headers: { authorization: 'Bearer tok-123' } })).status).toBe(200);
    expect((await fetch(`${url}/reload`, { method: 'POST', headers: { authorization: 'Bearer tok-123' } })).status).toBe(401);
    expect((await fetch(`${url}/reload`, { method: 'POST', headers: { authorization: 'Bearer tok-456' } })).status).toBe(200);
  });
});

describe('log lines', () => {
  it('carry the pid and the service', () => {
    let text = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        text += String(chunk);
        done();
      },
    });
    const logger = createLogger('info', sink as unknown as import('pino').DestinationStream);
    logger.info('hello');
    expect(parseJsonLines(text)[0]).toMatchObject({ pid: process.pid, service: 'dl-version-gateway', msg: 'hello' });
  });
});
