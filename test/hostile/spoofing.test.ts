// Clients that claim to be someone else: a newer client version, the web UI, another address, host or scheme.
// The backend must never receive the gateway-owned headers as the client sent them; above all
// x-dl-client-api-version always equals the version the gateway resolved, so a v1 client can neither read nor
// overwrite an object the web UI saved at v2. test/edge/forwarding.test.ts proves the single-header cases at
// v2 (x-dl-client-api-version, x-forwarded-for/-host, forwarded, x-real-ip); these add duplicates and odd
// spellings over raw sockets, trailers, Connection tricks, the v1 (translated) path and the migrations' calls,
// and check the outcome on the stored object, not only the header.

import { describe, expect, it } from 'vitest';
import {
  type BackendTap,
  REQUEST_DEADLINE_MS,
  type SeenRequest,
  createV1Report,
  useHostileStack,
} from '../helpers/hostile.js';
import { HEAD } from '../helpers/calendar.js';
import { REPORT_DESCRIPTION } from '../helpers/head-shapes.js';
import { expectProblem, send } from '../helpers/http.js';
import { head, post, rawExchange, within } from '../helpers/raw-socket.js';
import { type Stack, rpc } from '../helpers/stack.js';

let stack: Stack;
let tap: BackendTap;
let reportId: string;

useHostileStack('reports/sales/hostile-spoofing', (pieces) => {
  ({ stack, tap, reportId } = pieces);
});

/** A report the web UI has edited: saved under the head, straight on the backend (no x-dl-client-api-version). */
async function uiEditedReport(description: string): Promise<string> {
  const id = await createV1Report(stack, 'reports/marketing/spoof-target', { description: 'written by v1' });
  const res = await within(
    REQUEST_DEADLINE_MS,
    fetch(`${stack.backendUrl}/rpc/updateReport`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dl-api-version': String(HEAD) },
      // Moved to another workbook, so the v1 key no longer names where it is: version 1 cannot read it whole.
      body: JSON.stringify({ reportId: id, [REPORT_DESCRIPTION]: description, workbookId: 'wb_demo_sales' }),
    }),
  );
  expect(res.status).toBe(200);
  expect(((await res.json()) as { version: number }).version).toBe(HEAD);
  return id;
}

/** The report as the backend holds it (read at the head, straight from the backend). */
async function stored(id: string): Promise<Record<string, unknown>> {
  const res = await within(
    REQUEST_DEADLINE_MS,
    fetch(`${stack.backendUrl}/rpc/getReport`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dl-api-version': String(HEAD) },
      body: JSON.stringify({ reportId: id }),
    }),
  );
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** Sends raw bytes and answers the first response and what the backend received meanwhile. */
async function raw(bytes: string | Buffer) {
  const mark = tap.mark();
  const result = await rawExchange(stack.url, [bytes], { deadlineMs: REQUEST_DEADLINE_MS, responses: 1 });
  expect(result.closedBy, `no answer within ${REQUEST_DEADLINE_MS} ms`).not.toBe('deadline');
  return { res: result.responses[0]!, seen: tap.since(mark) };
}

/** Every request the backend saw acts for exactly `version` and carries the head version. */
function expectActsFor(seen: readonly SeenRequest[], version: string) {
  expect(seen.length).toBeGreaterThan(0);
  for (const s of seen) {
    expect(s.headers['x-dl-client-api-version'], s.url).toBe(version);
    expect(s.headers['x-dl-api-version'], s.url).toBe(String(HEAD));
  }
}

describe('a v1 client claiming a newer client version', () => {
  const claims: [string, [string, string][]][] = [
    ['x-dl-client-api-version: 2', [['x-dl-client-api-version', '2']]],
    ['two x-dl-client-api-version lines', [['x-dl-client-api-version', '2'], ['X-DL-Client-API-Version', '2']]],
    ['an empty x-dl-client-api-version (the web UI sends none)', [['x-dl-client-api-version', '']]],
    ['x-dl-client-api-version listed in Connection (so the gateway would drop it)', [['connection', 'x-dl-client-api-version'], ['x-dl-client-api-version', '2']]],
    ['a padded value', [['x-dl-client-api-version', ' 2 ']]],
  ];

  it.each(claims)('cannot read a UI-edited report with %s: 409, and the backend saw client version 1', async (_label, headers) => {
    const id = await uiEditedReport('edited in the UI (read)');
    const { res, seen } = await raw(post('/rpc/getReport', JSON.stringify({ reportId: id }), [['x-dl-api-version', '1'], ...headers]));
    const details = expectProblem(res, 409, 'UNSUPPORTED_OBJECT_VERSION');
    expect(details).toMatchObject({ objectId: id, objectVersion: HEAD, requestedVersion: 1 });
    expect(res.bodyText).not.toContain('edited in the UI');
    expectActsFor(seen, '1');
  });

  it.each(claims)('cannot overwrite a UI-edited report with %s: 409, and the report is unchanged', async (_label, headers) => {
    const id = await uiEditedReport('edited in the UI (write)');
    const before = await stored(id);
    const { res, seen } = await raw(
      post('/rpc/updateReport', JSON.stringify({ reportId: id, description: 'overwritten by a spoofing v1 client', config: { x: 1 } }), [
        ['x-dl-api-version', '1'],
        ...headers,
      ]),
    );
    expectProblem(res, 409, 'UNSUPPORTED_OBJECT_VERSION');
    expectActsFor(seen, '1');
    expect(await stored(id)).toEqual(before);
    expect(before).toMatchObject({ [REPORT_DESCRIPTION]: 'edited in the UI (write)', version: HEAD });
  });

  it.each(claims)('cannot delete a UI-edited report with %s', async (_label, headers) => {
    const id = await uiEditedReport('edited in the UI (delete)');
    const { res, seen } = await raw(post('/rpc/deleteReport', JSON.stringify({ reportId: id }), [['x-dl-api-version', '1'], ...headers]));
    expectProblem(res, 409, 'UNSUPPORTED_OBJECT_VERSION');
    expectActsFor(seen, '1');
    expect((await stored(id)).version).toBe(HEAD);
  });

  it('stamps a v1 write as version 1 even when it claims 2, so the UI can still take it over later', async () => {
    const { res, seen } = await raw(
      post('/rpc/updateReport', JSON.stringify({ reportId, description: 'v1 write claiming 2' }), [
        ['x-dl-api-version', '1'],
        ['x-dl-client-api-version', '2'],
        ['x-dl-client-api-version', '2'],
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expectActsFor(seen, '1');
    expect(await stored(reportId)).toMatchObject({ [REPORT_DESCRIPTION]: 'v1 write claiming 2', version: 1 });
  });

  it('ignores x-dl-client-api-version sent as a trailer of a chunked v1 write', async () => {
    const text = JSON.stringify({ reportId, description: 'v1 write with a trailer' });
    const bytes =
      head('POST /rpc/updateReport HTTP/1.1', [
        ['host', '127.0.0.1'],
        ['content-type', 'application/json'],
        ['x-dl-api-version', '1'],
        ['transfer-encoding', 'chunked'],
        ['trailer', 'x-dl-client-api-version'],
      ]) + `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\nx-dl-client-api-version: 2\r\n\r\n`;
    const { res, seen } = await raw(bytes);
    expect(res.status).toBe(200);
    expectActsFor(seen, '1');
    expect(await stored(reportId)).toMatchObject({ [REPORT_DESCRIPTION]: 'v1 write with a trailer', version: 1 });
  });

  it('acts for version 1 on a migration\'s own backend call too (the key lookup), whatever the client claims', async () => {
    const { res, seen } = await raw(
      post('/rpc/createReport', JSON.stringify({ key: 'reports/spoof/lookup', config: {} }), [
        ['x-dl-api-version', '1'],
        ['x-dl-client-api-version', '2'],
        ['connection', 'x-dl-client-api-version'],
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(seen.map((s) => s.url)).toEqual(['/rpc/resolveLegacyKey', '/rpc/createReport']);
    expectActsFor(seen, '1');
  });

  it('a v2 client claiming 1 is still stamped 2 (the claim cannot lower a version either)', async () => {
    const mark = tap.mark();
    const res = await within(
      REQUEST_DEADLINE_MS,
      rpc(stack.url, 'createReport', { workbookId: 'wb_demo_sandbox', config: {} }, '2', { 'x-dl-client-api-version': '1' }),
    );
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(2);
    expectActsFor(tap.since(mark), '2');
  });
});

describe('forwarding and address headers', () => {
  const SPOOFED: [string, string][] = [
    ['x-forwarded-for', '6.6.6.6'],
    ['x-forwarded-host', 'evil.example'],
    ['x-forwarded-proto', 'gopher'],
    ['x-forwarded-port', '6666'],
    ['x-forwarded-prefix', '/evil-prefix'],
    ['forwarded', 'for=6.6.6.6;host=evil.example;proto=gopher'],
    ['x-real-ip', '6.6.6.6'],
  ];
  const MARKERS = ['6.6.6.6', 'evil.example', 'gopher', '6666', '/evil-prefix'];

  /** No header the backend saw carries any spoofed value, under any name. */
  const expectClean = (seen: readonly SeenRequest[]) => {
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      const text = JSON.stringify(s.headers);
      for (const m of MARKERS) expect(text, `${s.url} carries ${m}`).not.toContain(m);
      expect(s.headers.host).toBe(new URL(stack.backendUrl).host);
    }
  };

  it.each(['1', '2', 'latest'])('never reach the backend as sent (v%s, each header twice, odd case)', async (version) => {
    const headers: [string, string][] = SPOOFED.flatMap(([n, v]): [string, string][] => [
      [n, v],
      [n.toUpperCase(), v],
    ]);
    const { res, seen } = await raw(post('/rpc/getReport', JSON.stringify({ reportId }), [['x-dl-api-version', version], ...headers]));
    expect(res.status).toBe(200);
    expectClean(seen);
  });

  it('never reach the backend on a migration\'s own call (v1 key lookup) either', async () => {
    const { res, seen } = await raw(
      post('/rpc/createReport', JSON.stringify({ key: 'reports/spoof/forwarded', config: {} }), [['x-dl-api-version', '1'], ...SPOOFED]),
    );
    expect(res.status).toBe(200);
    expect(seen.map((s) => s.url)).toContain('/rpc/resolveLegacyKey');
    expectClean(seen);
  });

  it('a Host of another site and an absolute-form target do not change where the call goes', async () => {
    const bytes = post('/rpc/getReport', JSON.stringify({ reportId }), [
      ['host', 'evil.example'],
      ['x-dl-api-version', '2'],
    ]);
    const { res, seen } = await raw(bytes);
    expect(res.status).toBe(200);
    expectClean(seen);
  });

  it('a client x-request-id sent twice is not a sane token: both sides get one fresh id', async () => {
    const { res, seen } = await raw(
      post('/rpc/getReport', JSON.stringify({ reportId }), [
        ['x-dl-api-version', '2'],
        ['x-request-id', 'first-id'],
        ['x-request-id', 'second-id'],
      ]),
    );
    expect(res.status).toBe(200);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.map((s) => s.headers['x-request-id'])).toEqual([id]);
  });

  it('the gateway answers with its own version and request id, whatever the client sent', async () => {
    const res = await within(
      REQUEST_DEADLINE_MS,
      send(stack.url, {
        path: '/rpc/getReport',
        headers: { 'content-type': 'application/json', 'x-dl-api-version': '1', 'x-dl-client-api-version': '2', 'x-request-id': 'spoof-check-1' },
        body: JSON.stringify({ reportId }),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers['x-dl-api-version']).toBe('1');
    expect(res.headers['x-request-id']).toBe('spoof-check-1');
    expect(res.headers['x-dl-client-api-version']).toBeUndefined();
  });
});
