// The backend-says-no matrix (issue 11): every backend call the gateway makes on a client's behalf × every way a
// backend can answer, checked against the rule of docs/reference/errors.md ("Answers from the backend", "Headers
// the gateway owns"). The calls: (a) a getReport at the head, forwarded and streamed; (b) a v1 getReport, forwarded and
// checked; (c) the key lookup (resolveLegacyKey) of a v1 createReport whose key no configured prefix matches;
// (d) the first page-walk call (getEntries) of a v1 getEntries for page 2 with no cached tokens; (e) the GET /ping
// of /readyz. Each fault has its own scripted backend (the call under test gets the fault, every other call a
// normal answer) and its own gateway. In every cell: a complete (or cut) answer within upstream.timeoutMs + 1 s;
// status, headers and body as the table says (written out per cell, never derived from the gateway's code); one
// attempt upstream; the connection reusable or closed, never held; the log line and dlgw_requests_total
// recording the status the client got (never 499: the client stays).

import { EventEmitter } from 'node:events';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { type ExpectStatic, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/http.js';
import { type Answer, openConnection } from '../helpers/keep-alive.js';
import { post, within } from '../helpers/raw-socket.js';
import { type ScriptApi, type ScriptedRequest, type ScriptedUpstream, responseHead, startScriptedUpstream } from '../helpers/scripted-upstream.js';
import { HEAD, deprecationSfDate } from '../helpers/calendar.js';
import { CALENDAR, type Stack, V1_SUNSET, startStack } from '../helpers/stack.js';

const TIMEOUT_MS = 400;
/** The bound: a complete (or cut) answer within upstream.timeoutMs + 1 s. */
const BOUND_MS = TIMEOUT_MS + 1_000;

// ── What the backend sends besides the body, and what the client must see instead ──────────────────────────

const BACKEND_NEXT = '<https://backend.example/rpc/getEntries?page=3>; rel="next"';
const BACKEND_LINK = `${BACKEND_NEXT}, <https://backend.example/docs/old>; rel="deprecation"`;
/** Headers the reference-like backend puts on its answers: its own version and request id, and lifecycle headers of its own. */
const BACKEND_OWN: Record<string, string> = {
  'x-dl-api-version': String(HEAD),
  'x-request-id': 'backend-own-id',
  deprecation: '@1',
  sunset: 'Thu, 01 Jan 1970 00:00:00 GMT',
  link: BACKEND_LINK,
};
/** v1 under the stack's calendar (deprecated at v2's release, sunset 180 days later), as the gateway announces it. */
const GATEWAY_V1 = {
  deprecation: deprecationSfDate(CALENDAR, 1),
  sunset: V1_SUNSET.toUTCString(),
  link: '<https://example.com/migrate-v1-to-v2>; rel="deprecation"; type="text/html", </2/>; rel="successor-version"',
};
/** Text only non-JSON backend bodies contain: it must never reach the client inside a problem. */
const MARKER = 'BACKEND-BODY-MARKER';

// ── The backend's normal answers (shapes of src/reference-backend) ──────────────────────────────────────────

interface Reply {
  readonly status: string;
  readonly headers: Record<string, string | number>;
  readonly body: Buffer;
}

const AT = '2026-11-20T10:00:00.000Z';
const json = (value: unknown, status = '200 OK'): Reply => {
  const body = Buffer.from(JSON.stringify(value));
  return { status, headers: { 'content-type': 'application/json', 'content-length': body.length, ...BACKEND_OWN }, body };
};
const report = (id: string, workbookId: string, legacyKey: string) => ({
  id,
  workbookId,
  config: { rows: 10 },
  description: '',
  legacyKey,
  version: 1,
  createdAt: AT,
  updatedAt: AT,
});
const entry = (n: number) => ({
  entryId: `ent_${n}`,
  key: `dash/sales/${n}`,
  scope: 'dash',
  type: 'dash',
  workbookId: 'wb_demo_marketing',
  createdBy: 'api',
  version: 2,
  createdAt: AT,
  updatedAt: AT,
});

const KEY = 'reports/marketing/q3';

/** What a healthy backend answers to `req`. */
function normalReply(req: ScriptedRequest): Reply {
  const args = (req.body ? JSON.parse(req.body) : {}) as Record<string, any>;
  switch (req.path) {
    case '/ping':
      return json({ status: 'ok', apiVersion: HEAD });
    case '/rpc/getReport':
      return json(report(String(args.reportId), 'wb_demo_marketing', KEY));
    case '/rpc/resolveLegacyKey':
      return json({ workbookId: 'wb_demo_marketing', legacyFolderKey: 'reports/marketing/' });
    case '/rpc/createReport':
      return json(report('rep_new', String(args.workbookId), String(args.legacyKey)));
    case '/rpc/getEntries': {
      // An endless listing; tokens name the offset they continue from.
      const at = typeof args.pageToken === 'string' ? Number(args.pageToken.slice(4)) : 0;
      const size = typeof args.pageSize === 'number' ? args.pageSize : 100;
      return json({ entries: Array.from({ length: size }, (_, i) => entry(at + i)), nextPageToken: `tok_${at + size}` });
    }
    case '/rpc/getWorkbook':
      return json({ workbookId: String(args.workbookId), title: 'Marketing', legacyFolderKey: 'reports/marketing/', version: 2, createdAt: AT, updatedAt: AT });
    case '/rpc/deleteReport':
      return json({ reportId: String(args.reportId), deleted: true });
    default:
      return json({ code: 'ENDPOINT_NOT_FOUND', message: `No endpoint at ${req.path}.` }, '404 Not Found');
  }
}

/** The calls under test: the forwarded getReport (a, b), the key lookup (c), the walk's first getEntries (d), the ping (e). */
function isUnderTest(req: ScriptedRequest): boolean {
  if (req.path === '/ping' || req.path === '/rpc/getReport' || req.path === '/rpc/resolveLegacyKey') return true;
  // The walk's first call carries no token; the later walk calls and the forwarded request do.
  if (req.path === '/rpc/getEntries') return !('pageToken' in (JSON.parse(req.body) as object));
  return false;
}

const write = (socket: ScriptApi['socket'], reply: Reply) =>
  socket.write(Buffer.concat([Buffer.from(responseHead(reply.status, reply.headers), 'latin1'), reply.body]));

// ── The faults, and the table of what each call gets ─────────────────────────────────────────────────────────

type CallId = 'a' | 'b' | 'c' | 'd' | 'e';

/** What the client gets. */
type Outcome =
  /** The normal answer (the control row). */
  | 'ok'
  /** The backend's 2xx, streamed unchanged: status, content type, bytes. */
  | 'streamed'
  /** The backend's refusal passed on unchanged: status, headers, content type, bytes. */
  | 'passed'
  /** The backend's status and headers (Retry-After, WWW-Authenticate kept), the gateway's UPSTREAM_ERROR problem body. */
  | 'wrapped'
  /** 502 UPSTREAM_UNAVAILABLE. */
  | 'unavailable'
  /** 504 UPSTREAM_TIMEOUT. */
  | 'timeout'
  /** The streamed answer's head came, then the connection closed before the body's end. */
  | 'cut'
  /** 422 VERSION_TRANSLATION_FAILED: the lookup said no workbook holds the key. */
  | 'no-key'
  /** /readyz: 200 ready, or 503 not ready. */
  | 'ready'
  | 'not-ready';

interface Refused {
  readonly status: number;
  /** Undefined: the backend sent no content type. */
  readonly contentType: string | undefined;
  readonly body: Buffer;
  /** Headers of the refusal that the client must get as they are, passed on or wrapped. */
  readonly kept: Record<string, string>;
}

interface Fault {
  readonly name: string;
  /** Answers the call under test; `normal` is what a healthy backend would have answered. */
  answer(api: ScriptApi, normal: Reply): void;
  /** A 4xx/5xx answer: what passing it on or wrapping it must keep. */
  readonly refused?: Refused;
  /** A 2xx answer streamed unchanged at v2: its content type and bytes. */
  readonly streamed?: { contentType: string; body: Buffer };
  /** Text the 502's `details.reason` must contain (the content type, or `redirect 302`). */
  readonly reason?: string;
  readonly expect: Readonly<Record<CallId, Outcome>>;
}

const row = (a: Outcome, b: Outcome, c: Outcome, d: Outcome, e: Outcome) => ({ a, b, c, d, e });

const ETAG = '"backend-etag-1"';
const REASONS: Record<number, string> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable' };

/** A 4xx/5xx answer; `extra` headers (WWW-Authenticate, Retry-After, Content-Encoding) must reach the client. */
function refusal(
  name: string,
  status: number,
  contentType: string | undefined,
  body: string | Buffer,
  extra: Record<string, string>,
  expect: Fault['expect'],
): Fault {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const headers: Record<string, string | number> = {
    ...(contentType !== undefined && { 'content-type': contentType }),
    'content-length': bytes.length,
    etag: ETAG,
    ...BACKEND_OWN,
    ...extra,
  };
  return {
    name,
    answer: ({ socket }) => write(socket, { status: `${status} ${REASONS[status]}`, headers, body: bytes }),
    refused: { status, contentType, body: bytes, kept: extra },
    expect,
  };
}

const problemJson = (status: number, code: string, detail: string, details: Record<string, unknown>) =>
  JSON.stringify({ type: `urn:dl-version-gateway:problem:${code}`, title: code, status, detail, code, message: detail, requestId: 'backend-own-id', details });

const WWW_AUTH = { 'www-authenticate': 'Bearer realm="datalens", error="invalid_token"' };
const RETRY_429 = { 'retry-after': '7' };
const RETRY_503 = { 'retry-after': '120' };
const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';
const htmlPage = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><p>${MARKER}</p></body></html>`;

/** A head with content-length for the whole body, then half of it: the rest never comes. */
const halfBody = (socket: ScriptApi['socket'], reply: Reply) =>
  socket.write(Buffer.concat([Buffer.from(responseHead(reply.status, reply.headers), 'latin1'), reply.body.subarray(0, Math.floor(reply.body.length / 2))]));

const PASSED = row('passed', 'passed', 'passed', 'passed', 'not-ready');
const WRAPPED = row('wrapped', 'wrapped', 'wrapped', 'wrapped', 'not-ready');
const UNAVAILABLE = row('unavailable', 'unavailable', 'unavailable', 'unavailable', 'not-ready');

const NOT_JSON = '{"id":"rep_cell","workbookId":';
const WRONG_SHAPE = '{"unexpected":true}';

const FAULTS: Fault[] = [
  // The control row: every call answered normally.
  { name: 'answers normally', answer: ({ socket }, normal) => write(socket, normal), expect: row('ok', 'ok', 'ok', 'ok', 'ready') },

  // 2xx with a broken body. At the latest version the gateway streams a JSON-typed 2xx without parsing it.
  {
    name: 'answers 200 application/json with a body that is not JSON',
    answer: ({ socket }) => write(socket, { status: '200 OK', headers: { 'content-type': 'application/json', 'content-length': NOT_JSON.length, ...BACKEND_OWN }, body: Buffer.from(NOT_JSON) }),
    streamed: { contentType: 'application/json', body: Buffer.from(NOT_JSON) },
    // /readyz: the version the backend announces in its x-dl-api-version header is enough (the body is not read).
    expect: row('streamed', 'unavailable', 'unavailable', 'unavailable', 'ready'),
  },
  {
    name: 'answers 200 application/json with JSON that is not what the call needs',
    answer: ({ socket }) => write(socket, { status: '200 OK', headers: { 'content-type': 'application/json', 'content-length': WRONG_SHAPE.length, ...BACKEND_OWN }, body: Buffer.from(WRONG_SHAPE) }),
    streamed: { contentType: 'application/json', body: Buffer.from(WRONG_SHAPE) },
    expect: row('streamed', 'unavailable', 'unavailable', 'unavailable', 'ready'),
  },
  {
    name: 'answers 200 with an HTML login page (a proxy in front of it)',
    answer: ({ socket }) => {
      const body = Buffer.from(htmlPage('Sign in'));
      write(socket, { status: '200 OK', headers: { 'content-type': HTML, 'content-length': body.length }, body });
    },
    reason: 'text/html',
    expect: UNAVAILABLE,
  },
  {
    name: 'answers 200 with the right JSON under text/plain',
    answer: ({ socket }, normal) => write(socket, { ...normal, headers: { ...normal.headers, 'content-type': TEXT } }),
    reason: 'text/plain',
    expect: row('unavailable', 'unavailable', 'unavailable', 'unavailable', 'ready'),
  },

  // 3xx: never passed on; its Location names the backend's own address.
  {
    name: 'answers 302 with a Location',
    answer: ({ socket }) =>
      write(socket, { status: '302 Found', headers: { location: 'http://10.0.0.7:8080/login?next=%2Frpc', 'content-length': 0, ...BACKEND_OWN }, body: Buffer.alloc(0) }),
    reason: 'redirect 302',
    expect: UNAVAILABLE,
  },

  // 4xx with a JSON body, a non-JSON body, no body.
  refusal('answers 401 with a JSON body', 401, 'application/json', '{"message":"no credentials"}', WWW_AUTH, PASSED),
  refusal('answers 401 with a text/plain body', 401, TEXT, `Unauthorized ${MARKER}`, WWW_AUTH, WRAPPED),
  refusal('answers 401 with no body', 401, undefined, '', WWW_AUTH, WRAPPED),
  refusal('answers 403 with a JSON body', 403, 'application/json; charset=utf-8', '{"code":"FORBIDDEN","message":"not in this workbook"}', {}, PASSED),
  refusal('answers 403 with a gzip-compressed JSON body', 403, 'application/json', gzipSync('{"code":"FORBIDDEN","message":"compressed"}'), { 'content-encoding': 'gzip' }, PASSED),
  refusal('answers 403 with an HTML page', 403, HTML, htmlPage('Forbidden'), {}, WRAPPED),
  refusal('answers 403 with no body', 403, undefined, '', {}, WRAPPED),
  // A 404 problem from the lookup is the backend saying that no workbook holds the key: 422 VERSION_TRANSLATION_FAILED
  // (the catalogue's 422 row, README). A 404 without a JSON body says nothing about the key: the rule applies.
  refusal('answers 404 with a JSON problem body', 404, 'application/problem+json', problemJson(404, 'NOT_FOUND', 'Not found.', { key: KEY }), {}, row('passed', 'passed', 'no-key', 'passed', 'not-ready')),
  refusal('answers 404 with an HTML page', 404, HTML, htmlPage('Not Found'), {}, WRAPPED),
  refusal('answers 404 with no body', 404, undefined, '', {}, WRAPPED),
  refusal(
    'answers 409 with a JSON problem body',
    409,
    'application/problem+json',
    problemJson(409, 'UNSUPPORTED_OBJECT_VERSION', 'Object rep_cell was saved under API version 3.', { objectId: 'rep_cell', objectVersion: 3, requestedVersion: 1, minVersion: 3 }),
    {},
    PASSED,
  ),
  refusal('answers 409 with a text/plain body', 409, TEXT, `Conflict ${MARKER}`, {}, WRAPPED),
  refusal('answers 409 with no body', 409, undefined, '', {}, WRAPPED),
  refusal('answers 429 with a JSON body and Retry-After', 429, 'application/json', '{"message":"slow down"}', RETRY_429, PASSED),
  refusal('answers 429 with a text/plain body and Retry-After', 429, TEXT, `Too many requests ${MARKER}`, RETRY_429, WRAPPED),
  refusal('answers 429 with no body and Retry-After', 429, undefined, '', RETRY_429, WRAPPED),

  // 5xx.
  refusal('answers 500 with the JSON body [1,2]', 500, 'application/json', '[1,2]', {}, PASSED),
  refusal('answers 500 with an HTML page', 500, HTML, htmlPage('Internal Server Error'), {}, WRAPPED),
  refusal('answers 500 application/json with a body that is not JSON', 500, 'application/json', `Internal Server Error ${MARKER}`, {}, WRAPPED),
  refusal('answers 503 with a JSON body and Retry-After', 503, 'application/json', '{"message":"maintenance"}', RETRY_503, PASSED),
  refusal('answers 503 with an HTML page and Retry-After', 503, HTML, htmlPage('Maintenance'), RETRY_503, WRAPPED),

  // Resets and silence.
  { name: 'resets the connection before the head', answer: ({ socket }) => socket.resetAndDestroy(), expect: UNAVAILABLE },
  {
    name: 'resets the connection in the middle of a 200 body',
    answer: ({ socket, later }, normal) => {
      halfBody(socket, normal);
      // Let the head arrive first: a reset also throws away what the peer has not read yet.
      later(25, () => socket.resetAndDestroy());
    },
    // Streamed (a): the answer is cut. Buffered (b, c, d): 502.
    expect: row('cut', 'unavailable', 'unavailable', 'unavailable', 'not-ready'),
  },
  {
    name: 'resets the connection in the middle of a 401 JSON body',
    answer: ({ socket, later }) => {
      const body = Buffer.from('{"message":"no credentials","hint":"send a bearer token"}');
      halfBody(socket, { status: '401 Unauthorized', headers: { 'content-type': 'application/json', 'content-length': body.length, ...BACKEND_OWN, ...WWW_AUTH }, body });
      later(25, () => socket.resetAndDestroy());
    },
    // Refusals are buffered at every version.
    expect: UNAVAILABLE,
  },
  { name: 'stays silent past the deadline', answer: () => undefined, expect: row('timeout', 'timeout', 'timeout', 'timeout', 'not-ready') },
  {
    name: 'sends a 200 head and half its body, then stays silent',
    answer: ({ socket }, normal) => halfBody(socket, normal),
    expect: row('cut', 'timeout', 'timeout', 'timeout', 'not-ready'),
  },
];

// ── The calls ────────────────────────────────────────────────────────────────────────────────────────────────

interface Call {
  readonly id: CallId;
  readonly label: string;
  /** The version asked for (undefined: not an /rpc call). */
  readonly version?: string;
  readonly method?: string;
  request(requestId: string): Buffer;
  /** The upstream paths this call's request id reaches, when the call under test fails (and when all goes well). */
  readonly paths: { failed: string[]; ok: string[] };
}

const rpcRequest = (method: string, version: string, body: unknown) => (requestId: string) =>
  post(`/rpc/${method}`, JSON.stringify(body), [
    ['x-dl-api-version', version],
    ['x-request-id', requestId],
  ]);

const CALLS: Call[] = [
  {
    id: 'a',
    label: '(a) head getReport, forwarded and streamed',
    version: String(HEAD),
    method: 'getReport',
    request: rpcRequest('getReport', String(HEAD), { reportId: 'rep_cell' }),
    paths: { failed: ['/rpc/getReport'], ok: ['/rpc/getReport'] },
  },
  {
    id: 'b',
    label: '(b) v1 getReport, forwarded and checked',
    version: '1',
    method: 'getReport',
    request: rpcRequest('getReport', '1', { reportId: 'rep_cell' }),
    paths: { failed: ['/rpc/getReport'], ok: ['/rpc/getReport'] },
  },
  {
    id: 'c',
    label: '(c) v1 createReport, its key lookup',
    version: '1',
    method: 'createReport',
    request: rpcRequest('createReport', '1', { key: KEY, config: { rows: 10 } }),
    paths: { failed: ['/rpc/resolveLegacyKey'], ok: ['/rpc/resolveLegacyKey', '/rpc/createReport'] },
  },
  {
    id: 'd',
    label: '(d) v1 getEntries page 2, its page walk',
    version: '1',
    method: 'getEntries',
    // Page 2 of 2 starts at entry 4: one walk call to get there, then the page itself.
    request: rpcRequest('getEntries', '1', { page: 2, pageSize: 2, scope: 'dash' }),
    paths: { failed: ['/rpc/getEntries'], ok: ['/rpc/getEntries', '/rpc/getEntries'] },
  },
  {
    id: 'e',
    label: '(e) /readyz, its ping',
    request: (requestId) => Buffer.from(`GET /readyz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-request-id: ${requestId}\r\n\r\n`, 'latin1'),
    paths: { failed: [], ok: [] },
  },
];

/** The request sent second on the same connection: any normal call. */
const again = (requestId: string) => rpcRequest('getWorkbook', String(HEAD), { workbookId: 'wb_demo_marketing' })(requestId);

// ── The request log, read from memory ────────────────────────────────────────────────────────────────────────

function memoryRequestLog() {
  const lines: Record<string, any>[] = [];
  const events = new EventEmitter();
  const logger = pino(
    { level: 'info' },
    {
      write(s: string) {
        for (const text of s.split('\n')) {
          if (!text.trim()) continue;
          const line = JSON.parse(text) as Record<string, any>;
          lines.push(line);
          events.emit('line', line);
        }
      },
    },
  );
  const find = (requestId: string) => lines.find((l) => l.msg === 'request' && l.requestId === requestId);
  return {
    logger,
    lines,
    /** The request's log line, once written. */
    line: (requestId: string) =>
      new Promise<Record<string, any>>((resolve) => {
        const found = find(requestId);
        if (found) return resolve(found);
        const on = () => {
          const now = find(requestId);
          if (now) {
            events.off('line', on);
            resolve(now);
          }
        };
        events.on('line', on);
      }),
  };
}

// ── One cell ─────────────────────────────────────────────────────────────────────────────────────────────────

const header = (res: { headers: Record<string, unknown> }, name: string) => res.headers[name] as string | undefined;
/** The raw stream ends with these bytes (compared byte for byte, as latin1). */
const endsWithBytes = (answer: Answer, bytes: Buffer) => answer.raw.endsWith(bytes.toString('latin1'));

/** The response head a well-behaved outcome has: status, content type, problem code (or none), complete. */
function expectedHead(outcome: Outcome, fault: Fault): Record<string, unknown> {
  switch (outcome) {
    case 'ok':
      return { status: 200, contentType: 'application/json', code: undefined, complete: true };
    case 'streamed':
      return { status: 200, contentType: fault.streamed?.contentType, code: undefined, complete: true };
    case 'passed':
      return { status: fault.refused?.status, contentType: fault.refused?.contentType, code: undefined, complete: true };
    case 'wrapped':
      return { status: fault.refused?.status, contentType: 'application/problem+json', code: 'UPSTREAM_ERROR', complete: true };
    case 'unavailable':
      return { status: 502, contentType: 'application/problem+json', code: 'UPSTREAM_UNAVAILABLE', complete: true };
    case 'timeout':
      return { status: 504, contentType: 'application/problem+json', code: 'UPSTREAM_TIMEOUT', complete: true };
    case 'no-key':
      return { status: 422, contentType: 'application/problem+json', code: 'VERSION_TRANSLATION_FAILED', complete: true };
    case 'cut':
      return { status: 200, contentType: 'application/json', code: undefined, complete: false };
    case 'ready':
      return { status: 200, contentType: 'application/json; charset=utf-8', code: undefined, complete: true };
    case 'not-ready':
      return { status: 503, contentType: 'application/json; charset=utf-8', code: undefined, complete: true };
  }
}

describe.each(FAULTS.map((fault, index) => ({ fault, index, name: fault.name })))('a backend that $name', ({ fault, index }) => {
  let upstream: ScriptedUpstream;
  let stack: Stack;
  const log = memoryRequestLog();

  beforeAll(async () => {
    upstream = await startScriptedUpstream((api) => {
      const normal = normalReply(api.request);
      if (isUnderTest(api.request)) fault.answer(api, normal);
      else write(api.socket, normal);
    });
    stack = await startStack({
      upstreamUrl: upstream.url,
      logger: log.logger,
      // "reports/marketing/q3" matches no configured prefix: the gateway asks the backend.
      config: { upstream: { timeoutMs: TIMEOUT_MS }, legacyKeys: { prefixes: { 'reports/finance/': 'wb_demo_finance' } } },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await upstream?.close();
  });

  // Concurrent cells: every assertion goes through the cell's own `expect`.
  it.concurrent.for(CALLS)('$label', async (call, { expect }) => {
    const outcome = fault.expect[call.id];
    const requestId = `bsn-${index}-${call.id}`;
    const conn = await openConnection(stack.url);
    try {
      conn.send(call.request(requestId));
      // The one timing bound: the answer is complete, or cut, within upstream.timeoutMs + 1 s.
      const first = await within(BOUND_MS, conn.answer(0), `${call.label}: the answer`);
      const res = first.response;
      expect(res, `${call.label}: a response head (closed: ${first.closed}, got ${JSON.stringify(first.raw.slice(0, 200))})`).toBeDefined();
      const got = { status: res!.status, contentType: header(res!, 'content-type'), code: (res!.body as { code?: unknown } | undefined)?.code, complete: res!.complete };
      // A refusal passed on keeps its own body (and code): compare the head only.
      if (outcome === 'passed') got.code = undefined;
      const want = expectedHead(outcome, fault);
      expect.soft(got, `${outcome}: ${res!.bodyText.slice(0, 300)}`).toEqual(want);
      const headAsExpected = JSON.stringify(got) === JSON.stringify(want);

      if (headAsExpected) checkAnswer(expect, call, outcome, fault, first, requestId);

      // The connection is reusable, or closed: never held open without an answer.
      if (outcome === 'cut') expect.soft(first.closed, 'a cut answer ends with the connection').toBe(true);
      if (!first.closed) {
        if (/\bclose\b/i.test(header(res!, 'connection') ?? '')) {
          await within(1_000, conn.closed, 'the close that Connection: close announced');
        } else {
          conn.send(again(`${requestId}-again`));
          const second = await within(BOUND_MS, conn.answer(1), `${call.label}: a second request on the same connection`);
          expect.soft(second.response?.complete && second.response.status, 'the second request on the connection').toBe(200);
        }
      }

      // One attempt upstream, to the call under test (and no further when it failed).
      const paths = upstream.requests.filter((r) => r.headers['x-request-id'] === requestId).map((r) => r.path);
      expect.soft(paths, 'the upstream requests made for this call').toEqual(outcome === 'ok' ? call.paths.ok : call.paths.failed);

      // The log line and the metrics record the status the client got.
      if (call.method) {
        const line = await within(1_000, log.line(requestId), 'the request log line');
        expect.soft(line.status, 'the log line status').toBe(res!.status);
        expect.soft(log.lines.filter((l) => l.requestId === requestId && l.level >= 50), 'error-level log lines').toEqual([]);
        const metric = stack.metrics.registry.getSingleMetric('dlgw_requests_total');
        const samples = (await metric!.get()).values.filter((v) => v.labels.version === call.version && v.labels.method === call.method);
        expect.soft(samples.map((v) => ({ status: String(v.labels.status), value: v.value })), 'dlgw_requests_total').toEqual([{ status: String(res!.status), value: 1 }]);
      }
    } finally {
      conn.destroy();
    }
  });

  if (index === 0) {
    // The control row's extra: a streamed (unchecked) v1 answer owns its lifecycle headers too.
    it('(f) v1 deleteReport, forwarded and streamed: the gateway\'s Deprecation, Sunset and Link, the backend\'s rel="next" kept', async () => {
      const conn = await openConnection(stack.url);
      try {
        conn.send(rpcRequest('deleteReport', '1', { reportId: 'rep_cell' })('bsn-f'));
        const { response: res } = await within(BOUND_MS, conn.answer(0), 'the answer');
        expect(res?.status).toBe(200);
        expect(res!.body).toEqual({ reportId: 'rep_cell', deleted: true });
        expect(header(res!, 'deprecation')).toBe(GATEWAY_V1.deprecation);
        expect(header(res!, 'sunset')).toBe(GATEWAY_V1.sunset);
        expect(header(res!, 'link')).toBe(`${BACKEND_NEXT}, ${GATEWAY_V1.link}`);
        expect(header(res!, 'x-dl-api-version')).toBe('1');
        expect(header(res!, 'x-request-id')).toBe('bsn-f');
      } finally {
        conn.destroy();
      }
    });
  }
});

/** The answer's headers and body, once its status, content type and code are as the table says. */
function checkAnswer(expect: ExpectStatic, call: Call, outcome: Outcome, fault: Fault, answer: Answer, requestId: string): void {
  const res = answer.response!;
  if (call.id === 'e') {
    const body = res.body as { status?: unknown; reason?: unknown; backendVersion?: unknown };
    if (outcome === 'ready') expect.soft(body).toEqual({ status: 'ready', backendVersion: HEAD });
    else {
      expect.soft(body.status).toBe('not ready');
      expect.soft(body.reason).toEqual(expect.any(String));
    }
    expect.soft(header(res, 'x-request-id')).toBe(requestId);
    return;
  }

  // Headers the gateway owns, on every /rpc answer.
  expect.soft(header(res, 'x-request-id'), 'x-request-id').toBe(requestId);
  expect.soft(header(res, 'x-dl-api-version'), 'x-dl-api-version').toBe(call.version);
  // Outcomes that carry the backend's own headers (the other ones are the gateway's problems).
  const backendHeaders = outcome === 'ok' || outcome === 'streamed' || outcome === 'passed' || outcome === 'wrapped' || outcome === 'cut';
  if (call.version === '1') {
    // A deprecated version: the gateway's Deprecation, Sunset and rel="deprecation" link; the backend's other links kept first.
    expect.soft(header(res, 'deprecation'), 'Deprecation at v1').toBe(GATEWAY_V1.deprecation);
    expect.soft(header(res, 'sunset'), 'Sunset at v1').toBe(GATEWAY_V1.sunset);
    if (backendHeaders) expect.soft(header(res, 'link'), 'Link at v1').toBe(`${BACKEND_NEXT}, ${GATEWAY_V1.link}`);
    else {
      expect.soft(header(res, 'link'), 'Link at v1').toContain(GATEWAY_V1.link);
      expect.soft(header(res, 'link'), 'Link at v1').not.toContain('backend.example/docs/old');
    }
  } else if (backendHeaders) {
    // The current version: the backend's lifecycle headers pass unchanged.
    expect.soft(header(res, 'deprecation'), 'Deprecation at v2').toBe(BACKEND_OWN.deprecation);
    expect.soft(header(res, 'sunset'), 'Sunset at v2').toBe(BACKEND_OWN.sunset);
    expect.soft(header(res, 'link'), 'Link at v2').toBe(BACKEND_LINK);
  }

  switch (outcome) {
    case 'ok': {
      const body = res.body as Record<string, unknown>;
      if (call.id === 'a') {
        expect.soft(body).toEqual(report('rep_cell', 'wb_demo_marketing', KEY));
      } else if (call.id === 'b' || call.id === 'c') {
        // Translated down: the v1 key instead of workbookId and legacyKey.
        expect.soft(body).toMatchObject({ id: call.id === 'b' ? 'rep_cell' : 'rep_new', key: KEY, version: 1 });
        expect.soft(body).not.toHaveProperty('workbookId');
      } else {
        // A v1 page says whether another follows (a token leads past it), as real DataLens version 1 answers.
        expect.soft(body).toEqual({ entries: [entry(4), entry(5)], nextPageToken: 'tok_6', hasNextPage: true });
      }
      return;
    }
    case 'streamed': {
      const { body } = fault.streamed!;
      expect.soft(header(res, 'content-length')).toBe(String(body.length));
      expect.soft(endsWithBytes(answer, body), `the backend's bytes, unchanged: ${JSON.stringify(res.bodyText)}`).toBe(true);
      return;
    }
    case 'passed': {
      const refused = fault.refused!;
      expect.soft(header(res, 'content-length')).toBe(String(refused.body.length));
      expect.soft(endsWithBytes(answer, refused.body), `the backend's bytes, unchanged: ${JSON.stringify(res.bodyText)}`).toBe(true);
      for (const [name, value] of Object.entries(refused.kept)) expect.soft(header(res, name), name).toBe(value);
      expect.soft(header(res, 'etag'), 'ETag of the body passed on').toBe(ETAG);
      return;
    }
    case 'wrapped': {
      const refused = fault.refused!;
      const details = expectProblem(res, refused.status, 'UPSTREAM_ERROR');
      expect.soft(details.upstreamStatus).toBe(refused.status);
      expect.soft(details.upstreamContentType).toBe(refused.contentType ?? null);
      for (const [name, value] of Object.entries(refused.kept)) expect.soft(header(res, name), name).toBe(value);
      // The backend's body and the headers that describe it are gone.
      expect.soft(header(res, 'etag'), 'ETag of the dropped body').toBeUndefined();
      expect.soft(res.bodyText).not.toContain(MARKER);
      return;
    }
    case 'unavailable': {
      const details = expectProblem(res, 502, 'UPSTREAM_UNAVAILABLE');
      expect.soft(details.reason).toEqual(expect.any(String));
      if (fault.reason) expect.soft(String(details.reason), 'the reason names what was wrong').toContain(fault.reason);
      expect.soft(header(res, 'location'), 'the backend\'s Location').toBeUndefined();
      expect.soft(res.bodyText).not.toContain(MARKER);
      return;
    }
    case 'timeout': {
      const details = expectProblem(res, 504, 'UPSTREAM_TIMEOUT');
      expect.soft(details.timeoutMs).toBe(TIMEOUT_MS);
      return;
    }
    case 'no-key': {
      const details = expectProblem(res, 422, 'VERSION_TRANSLATION_FAILED');
      expect.soft(details.field).toBe('key');
      return;
    }
    case 'cut':
      expect.soft(answer.closed).toBe(true);
      return;
    default:
      throw new Error(`no check for ${outcome} on an /rpc call`);
  }
}
