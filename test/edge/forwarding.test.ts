// What the backend receives from the gateway, and what comes back: paths, owned and hop-by-hop headers,
// request ids, byte-exact head bodies, and reused upstream connections.

import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../src/reference-backend/index.js';
import { type FaultUpstream, startFaultUpstream } from '../helpers/fault-upstream.js';
import { HEAD } from '../helpers/calendar.js';
import { UUID, send } from '../helpers/http.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';

const HEAD_HEADER = String(HEAD);

describe('forwarding to the reference backend', () => {
  let stack: Stack;
  /** A report written at v1, readable at both versions. */
  let reportId: string;

  beforeAll(async () => {
    stack = await startStack();
    const created = await rpc(stack.url, 'createReport', { key: 'reports/sales/forwarding', config: { n: 1 } }, '1');
    expect(created.status).toBe(200);
    reportId = created.body.id;
  });
  afterAll(() => stack.close());

  /** Runs `act` and returns what the backend received meanwhile. */
  async function received<T>(act: () => Promise<T>): Promise<{ result: T; requests: RecordedRequest[] }> {
    const before = stack.backend!.requests.length;
    const result = await act();
    return { result, requests: stack.backend!.requests.slice(before) };
  }
  const only = (requests: RecordedRequest[], url: string): RecordedRequest => {
    const matching = requests.filter((r) => r.url === url);
    expect(matching, `requests to ${url}`).toHaveLength(1);
    return matching[0]!;
  };
  /** The head-shaped body of a v2 body: what the backend receives when a v2 client sends it (a newer head may rename fields). */
  async function atHead(method: string, v2Body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { result, requests } = await received(() => rpc(stack.url, method, v2Body, '2'));
    expect(result.status).toBe(200);
    return JSON.parse(only(requests, `/rpc/${method}`).body) as Record<string, unknown>;
  }

  describe('the upstream path and version headers', () => {
    it.each(['1', '2'])('sends a v%s call as POST to exactly /rpc/<method>', async (version) => {
      const { result, requests } = await received(() => rpc(stack.url, 'getReport', { reportId }, version));
      expect(result.status).toBe(200);
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ method: 'POST', url: '/rpc/getReport' });
    });

    it('sends the head version in x-dl-api-version even for a v1 client, and 1 in x-dl-client-api-version', async () => {
      const { requests } = await received(() => rpc(stack.url, 'getReport', { reportId }, '1'));
      const seen = only(requests, '/rpc/getReport');
      expect(seen.headers['x-dl-api-version']).toBe(HEAD_HEADER);
      expect(seen.headers['x-dl-client-api-version']).toBe('1');
    });

    it('sends the head in x-dl-client-api-version for a `latest` client', async () => {
      const { requests } = await received(() => rpc(stack.url, 'getReport', { reportId }, 'latest'));
      const seen = only(requests, '/rpc/getReport');
      expect(seen.headers['x-dl-api-version']).toBe(HEAD_HEADER);
      expect(seen.headers['x-dl-client-api-version']).toBe(HEAD_HEADER);
    });

    it('drops a client-sent x-dl-client-api-version: a v1 client claiming 2 still acts as 1', async () => {
      const { requests } = await received(() =>
        rpc(stack.url, 'getReport', { reportId }, '1', { 'x-dl-client-api-version': '2' }),
      );
      expect(only(requests, '/rpc/getReport').headers['x-dl-client-api-version']).toBe('1');
    });

    it('drops a client-sent x-dl-client-api-version on a v2 call too, replacing it with 2', async () => {
      const { requests } = await received(() =>
        rpc(stack.url, 'getReport', { reportId }, '2', { 'x-dl-client-api-version': '1' }),
      );
      expect(only(requests, '/rpc/getReport').headers['x-dl-client-api-version']).toBe('2');
    });

    it('stamps a v1 client\'s write as version 1 even when it claims x-dl-client-api-version 2', async () => {
      const res = await rpc(stack.url, 'createReport', { key: 'reports/sales/claims-two', config: {} }, '1', {
        'x-dl-client-api-version': '2',
      });
      expect(res.status).toBe(200);
      expect(res.body.version).toBe(1);
    });

    it('carries the resolved versions on a migration\'s own backend call (the v1 key lookup)', async () => {
      const { result, requests } = await received(() =>
        rpc(stack.url, 'createReport', { key: 'reports/marketing/lookup-1', config: {} }, '1', { 'x-dl-client-api-version': '2' }),
      );
      expect(result.status).toBe(200);
      const lookup = only(requests, '/rpc/resolveLegacyKey');
      expect(lookup.headers['x-dl-api-version']).toBe(HEAD_HEADER);
      expect(lookup.headers['x-dl-client-api-version']).toBe('1');
      expect(JSON.parse(lookup.body)).toEqual({ key: 'reports/marketing/lookup-1' });
      const create = only(requests, '/rpc/createReport');
      expect(JSON.parse(create.body)).toMatchObject({ workbookId: 'wb_demo_marketing', legacyKey: 'reports/marketing/lookup-1' });
    });
  });

  describe('hop-by-hop and gateway-owned request headers', () => {
    it('never forwards hop-by-hop headers, nor the ones the client\'s Connection header lists', async () => {
      const { result, requests } = await received(() =>
        send(stack.url, {
          path: '/rpc/getReport',
          headers: {
            'content-type': 'application/json',
            'x-dl-api-version': '2',
            connection: 'keep-alive, x-secret-hop',
            'x-secret-hop': 'do-not-forward',
            te: 'trailers',
            upgrade: 'h2c',
            'proxy-authorization': 'Basic cHJveHk6c2VjcmV0',
            'proxy-connection': 'keep-alive',
            'keep-alive': 'timeout=5',
            trailer: 'x-checksum',
          },
          body: JSON.stringify({ reportId }),
        }),
      );
      expect(result.status).toBe(200);
      const headers = only(requests, '/rpc/getReport').headers;
      for (const name of ['x-secret-hop', 'te', 'upgrade', 'proxy-authorization', 'proxy-connection', 'keep-alive', 'trailer']) {
        expect(headers, name).not.toHaveProperty(name);
      }
      expect(headers.connection ?? '').not.toContain('x-secret-hop');
      expect(JSON.stringify(headers)).not.toContain('do-not-forward');
      expect(JSON.stringify(headers)).not.toContain('cHJveHk6c2VjcmV0');
    });

    it('does not forward the client\'s x-forwarded-for, forwarded or x-real-ip as sent', async () => {
      const { requests } = await received(() =>
        rpc(stack.url, 'getReport', { reportId }, '2', {
          'x-forwarded-for': '6.6.6.6',
          forwarded: 'for=6.6.6.6',
          'x-real-ip': '6.6.6.6',
          'x-forwarded-host': 'evil.example',
        }),
      );
      const headers = only(requests, '/rpc/getReport').headers;
      expect(JSON.stringify(headers)).not.toContain('6.6.6.6');
      expect(JSON.stringify(headers)).not.toContain('evil.example');
    });

    it('sends the backend\'s own host, not the client\'s Host', async () => {
      const { requests } = await received(() => rpc(stack.url, 'getReport', { reportId }, '2'));
      expect(only(requests, '/rpc/getReport').headers.host).toBe(new URL(stack.backendUrl).host);
    });

    it('forwards a chunked client body as a content-length body with the same bytes', async () => {
      const text = JSON.stringify(await atHead('createReport', { workbookId: 'wb_demo_sandbox', config: { chunked: true } }));
      const chunks = [text.slice(0, 10), text.slice(10, 30), text.slice(30)];
      const { result, requests } = await received(() =>
        send(stack.url, {
          path: '/rpc/createReport',
          headers: { 'content-type': 'application/json', 'x-dl-api-version': HEAD_HEADER },
          chunks,
        }),
      );
      expect(result.status).toBe(200);
      const seen = only(requests, '/rpc/createReport');
      expect(seen.body).toBe(chunks.join(''));
      expect(seen.headers['content-length']).toBe(String(Buffer.byteLength(chunks.join(''))));
      expect(seen.headers).not.toHaveProperty('transfer-encoding');
    });
  });

  describe('headers passed through to the backend', () => {
    it.each(['1', '2'])('passes authorization, x-dl-org-id and other x-dl-* headers through at v%s', async (version) => {
      const { requests } = await received(() =>
        rpc(stack.url, 'getReport', { reportId }, version, {
          authorization: 'Bearer token-123',
          'x-dl-org-id': 'org-42',
          'x-dl-tenantid': 'tenant-7',
        }),
      );
      const headers = only(requests, '/rpc/getReport').headers;
      expect(headers.authorization).toBe('Bearer token-123');
      expect(headers['x-dl-org-id']).toBe('org-42');
      expect(headers['x-dl-tenantid']).toBe('tenant-7');
    });

    it('passes authorization and x-dl-org-id on a migration\'s own backend call too', async () => {
      const { requests } = await received(() =>
        rpc(stack.url, 'createReport', { key: 'reports/sales/lookup-auth', config: {} }, '1', {
          authorization: 'Bearer token-456',
          'x-dl-org-id': 'org-43',
        }),
      );
      for (const url of ['/rpc/resolveLegacyKey', '/rpc/createReport']) {
        const headers = only(requests, url).headers;
        expect(headers.authorization, url).toBe('Bearer token-456');
        expect(headers['x-dl-org-id'], url).toBe('org-43');
      }
    });

    it('asks for an uncompressed answer when it must check it (v1) and passes the client\'s choice at the head', async () => {
      const v1 = await received(() => rpc(stack.url, 'getReport', { reportId }, '1', { 'accept-encoding': 'gzip' }));
      expect(only(v1.requests, '/rpc/getReport').headers['accept-encoding']).toBe('identity');
      const head = await received(() => rpc(stack.url, 'getReport', { reportId }, HEAD_HEADER, { 'accept-encoding': 'gzip' }));
      expect(only(head.requests, '/rpc/getReport').headers['accept-encoding']).toBe('gzip');
    });
  });

  describe('the request id', () => {
    it('is generated as a UUID when absent, and the backend and the client see the same one', async () => {
      const { result, requests } = await received(() => rpc(stack.url, 'getReport', { reportId }, '2'));
      const id = result.headers.get('x-request-id');
      expect(id).toMatch(UUID);
      expect(only(requests, '/rpc/getReport').headers['x-request-id']).toBe(id);
    });

    it('is fresh for every request that comes without one', async () => {
      const a = await rpc(stack.url, 'getReport', { reportId }, '2');
      const b = await rpc(stack.url, 'getReport', { reportId }, '2');
      expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    });

    it.each(['1', '2'])('passes a client-given id to the backend and back at v%s', async (version) => {
      const given = `client-req.${version}:abc_DEF-123`;
      const { result, requests } = await received(() =>
        rpc(stack.url, 'getReport', { reportId }, version, { 'x-request-id': given }),
      );
      expect(result.headers.get('x-request-id')).toBe(given);
      expect(only(requests, '/rpc/getReport').headers['x-request-id']).toBe(given);
    });

    it('passes a client-given id on a migration\'s own backend call and on the error it ends in', async () => {
      const given = 'lookup-fails-42';
      const { result, requests } = await received(() =>
        rpc(stack.url, 'createReport', { key: 'nowhere/forwarding', config: {} }, '1', { 'x-request-id': given }),
      );
      expect(result.status).toBe(422);
      expect(result.body.requestId).toBe(given);
      expect(only(requests, '/rpc/resolveLegacyKey').headers['x-request-id']).toBe(given);
    });

    it.each([
      ['with spaces', 'two words'],
      ['too long', 'x'.repeat(129)],
      ['with a quote', 'id"quoted'],
    ])('replaces a client id that is not a sane token (%s) with a fresh UUID, both ways', async (_label, given) => {
      const { result, requests } = await received(() =>
        rpc(stack.url, 'getReport', { reportId }, '2', { 'x-request-id': given }),
      );
      const id = result.headers.get('x-request-id');
      expect(id).toMatch(UUID);
      expect(only(requests, '/rpc/getReport').headers['x-request-id']).toBe(id);
    });
  });

  describe('head-version bodies', () => {
    it('forwards a head-version body byte for byte: odd whitespace, escapes and number spellings kept', async () => {
      const shape = await atHead('createReport', { workbookId: 'wb_demo_sandbox', config: { a: 'ODD', b: {} } });
      delete shape.description; // a translation up may add the default; this client leaves it out
      const raw = `${JSON.stringify(shape, null, '\t ').replace('"ODD"', '[1, 2.50, 1e2, "\\u00e9\\n"] ')}   `;
      const { result, requests } = await received(() => rpc(stack.url, 'createReport', raw, HEAD_HEADER));
      expect(result.status).toBe(200);
      expect(Object.values(result.body)).toContainEqual({ a: [1, 2.5, 100, 'é\n'], b: {} });
      const seen = only(requests, '/rpc/createReport');
      expect(seen.body).toBe(raw);
      expect(seen.headers['content-length']).toBe(String(Buffer.byteLength(raw)));
      // Defaults of the gateway's schema (description: "") are not added to a pass-through body.
      expect(seen.body).not.toContain('description');
    });

    it('translates a v1 body instead: the backend gets the latest shape', async () => {
      const { result, requests } = await received(() =>
        rpc(stack.url, 'createReport', { key: 'reports/sales/translated', config: { x: 1 } }, '1'),
      );
      expect(result.status).toBe(200);
      const body = JSON.parse(only(requests, '/rpc/createReport').body);
      const shape = await atHead('createReport', { workbookId: 'wb_demo_sales', config: { x: 1 }, description: '' });
      expect(body).toEqual({ ...shape, legacyKey: 'reports/sales/translated' });
    });
  });

  describe('upstream connections', () => {
    it('reuses them: 20 sequential calls open at most 2 connections to the reference backend', async () => {
      let opened = 0;
      const count = () => {
        opened += 1;
      };
      const server = stack.backend!.server;
      // An idle connection from an earlier test may be reused: then none is opened at all.
      server.on('connection', count);
      try {
        for (let i = 0; i < 20; i++) {
          const res = await rpc(stack.url, 'getReport', { reportId }, '2');
          expect(res.status).toBe(200);
        }
      } finally {
        server.off('connection', count);
      }
      expect(opened).toBeLessThanOrEqual(2);
    });
  });
});

describe('forwarding to an upstream that answers instantly (slow mode, 0 ms)', () => {
  let upstream: FaultUpstream;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startFaultUpstream('slow', {
      delayMs: 0,
      body: '{"id":"rep_fast","workbookId":"wb","config":{},"description":"","version":1}',
      headers: {
        connection: 'keep-alive, x-upstream-hop',
        'x-upstream-hop': 'private',
        'keep-alive': 'timeout=4',
        'x-request-id': 'the-backend-made-this-up',
        'x-backend-extra': 'kept',
      },
    });
    stack = await startStack({ upstreamUrl: upstream.url });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it('reuses one or two upstream connections for 20 sequential calls', async () => {
    // The first test of this block: the upstream has seen no connection yet.
    expect(upstream.connections).toBe(0);
    for (let i = 0; i < 20; i++) {
      const res = await rpc(stack.url, 'getReport', { reportId: 'rep_fast' }, '2');
      expect(res.status).toBe(200);
    }
    expect(upstream.requests).toHaveLength(20);
    expect(upstream.connections).toBeGreaterThanOrEqual(1);
    expect(upstream.connections).toBeLessThanOrEqual(2);
  });

  it('keeps reusing upstream connections when every client sends Connection: close', async () => {
    const before = upstream.connections;
    for (let i = 0; i < 10; i++) {
      const res = await send(stack.url, {
        path: '/rpc/getReport',
        headers: { 'content-type': 'application/json', 'x-dl-api-version': '2', connection: 'close' },
        body: '{"reportId":"rep_fast"}',
      });
      expect(res.status).toBe(200);
      expect(upstream.requests.at(-1)!.headers.connection ?? 'keep-alive').not.toMatch(/close/i);
    }
    expect(upstream.connections - before).toBeLessThanOrEqual(2);
  });

  it.each(['1', '2'])('drops the upstream\'s hop-by-hop response headers at v%s and keeps the others', async (version) => {
    const res = await rpc(stack.url, 'getReport', { reportId: 'rep_fast' }, version);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-upstream-hop')).toBeNull();
    expect(res.headers.get('connection') ?? '').not.toContain('x-upstream-hop');
    expect(res.headers.get('keep-alive') ?? '').not.toBe('timeout=4');
    expect(res.headers.get('x-backend-extra')).toBe('kept');
  });

  it.each(['1', '2'])('answers with its own x-dl-api-version (%s) and request id, not the upstream\'s', async (version) => {
    const res = await rpc(stack.url, 'getReport', { reportId: 'rep_fast' }, version, { 'x-request-id': 'mine-1' });
    expect(res.headers.get('x-dl-api-version')).toBe(version);
    expect(res.headers.get('x-request-id')).toBe('mine-1');
  });

  it('sends the upstream exactly /rpc/<method> with the owned headers', async () => {
    await rpc(stack.url, 'getReport', { reportId: 'rep_fast' }, '1', { 'x-dl-client-api-version': '2', 'x-request-id': 'mine-2' });
    const seen = upstream.requests.at(-1)!;
    expect(seen.method).toBe('POST');
    expect(seen.path).toBe('/rpc/getReport');
    expect(seen.headers).toMatchObject({
      'x-dl-api-version': String(HEAD),
      'x-dl-client-api-version': '1',
      'x-request-id': 'mine-2',
      'content-type': 'application/json',
    });
    expect(JSON.parse(seen.body)).toEqual({ reportId: 'rep_fast' });
  });
});

describe('a client that goes away while the backend is still working', () => {
  let upstream: FaultUpstream;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startFaultUpstream('hang');
    stack = await startStack({ upstreamUrl: upstream.url, config: { upstream: { timeoutMs: 60_000 } } });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it.each(['1', '2'])('cancels its upstream request at v%s (the upstream connection is closed)', async (version) => {
    const arrived = once(upstream.events, 'request');
    const controller = new AbortController();
    const pending = fetch(`${stack.url}/rpc/getReport`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dl-api-version': version },
      body: '{"reportId":"rep_abandoned"}',
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await arrived;
    const closed = once(upstream.events, 'socket-close');
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    // Bounded by the test timeout: without the cancellation the upstream would wait for 60 s.
    await closed;
  });
});
