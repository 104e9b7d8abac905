// Request framing, the class and not its instances (issue 31): a corpus built as the cartesian product of small
// typed lists — every method × every body framing (none, Content-Length, chunked and each way to get them wrong)
// × every route class (/rpc at the head and at an old version, pass-through, an excluded prefix, own routes, a
// WebSocket upgrade) — each case sent raw on a fresh socket, its body a complete second request
// (`POST /rpc/deleteWorkbook`), to the gateway and through the generated nginx front. Behind both sits
// test/helpers/http1-upstream.ts, which parses what it reads as leniently as a careless backend would, so a
// request the gateway failed to frame shows up there as a second request or stray bytes. For every case: the
// upstream parsed at most one request of it, with the line sent (never the smuggled one), a body exactly the one
// the gateway meant to forward and nothing after it — or nothing reached it. Through the gateway alone the
// framing rule is also checked: what it refuses gets a 4xx and reaches nobody, what it accepts arrives once.
// Cases are told apart upstream by their x-case header (bytes without one are charged to the case before them on
// the same upstream connection: that is where smuggled bytes come from). /rpc routes also get a valid JSON body,
// since a request as the body is INVALID_JSON before the forwarder. Forms the rule leaves open (`Chunked`, a
// lying length that Node answers with 400 after `Connection: close`) get only the no-smuggling assertions.
// About 4,400 cases per hop (the product's size is asserted), both hops in about 10 s.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, type RunningNginx, startNginxWith } from '../../bench/nginx.js';
import { nginxFront } from '../../src/cli/nginx-front.js';
import { type Http1Request, type Http1Upstream, headerOf, startHttp1Upstream } from '../helpers/http1-upstream.js';
import { type RawResult, rawExchange } from '../helpers/raw-socket.js';
import { type Stack, startStack } from '../helpers/stack.js';

const nginxBinary = findNginx();
if (!nginxBinary) throw new Error('nginx not found: install the Debian package nginx-light (npm run test:all does)');

/** The deadline of one case: every answer here is local and small, so a silent case is one the server waits on. */
const CASE_DEADLINE_MS = 1_500;
/** Cases in flight at once (the machine has two shared cores). */
const CONCURRENCY = 24;
const EXCLUDED = '/internal';

// ---- the grammar's pieces ----

/** Every method class: safe and unsafe, body-less by habit or not, TRACE, lower case, unknown. */
const METHODS = ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'POST', 'PUT', 'PATCH', 'get', 'post', 'FOO'] as const;
type Method = (typeof METHODS)[number];
/** Methods llhttp and the gateway's rule refuse whatever the rest of the request is. */
const REFUSED_METHODS: ReadonlySet<Method> = new Set(['TRACE', 'get', 'post', 'FOO']);

/**
 * What the framing rule says: 'valid' is accepted and forwarded, 'invalid' refused with a 4xx before anything
 * reaches the upstream, 'unsettled' a form the rule does not decide (only the no-smuggling assertions apply).
 */
type Rule = 'valid' | 'invalid' | 'unsettled';

interface Framed {
  /** Header lines as written (no line end), so that folds and odd whitespace can be expressed. */
  readonly lines: readonly string[];
  /** The bytes after the head. */
  readonly bytes: Buffer;
  /** The body a server that frames correctly reads; undefined when the request has none. */
  readonly body: Buffer | undefined;
}

interface Framing {
  readonly name: string;
  readonly rule: Rule;
  readonly http10?: boolean;
  /** The fault is in the body, not the head: a route answered from the head alone may never read it. */
  readonly bodyFault?: boolean;
  /** Frames `body`; `smuggled` is what a lying length leaves behind it. */
  frame(body: Buffer, smuggled: Buffer): Framed;
}

const crlf = (...lines: string[]) => Buffer.from(lines.map((l) => `${l}\r\n`).join(''), 'latin1');
/** `body` as chunks of at most `size` bytes, each with `sizeText` writing its length, then `last` and the end. */
function chunked(body: Buffer, size = body.length, sizeText = (n: number) => n.toString(16), last = '0', trailers: string[] = []): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) {
    const piece = body.subarray(at, at + size);
    parts.push(crlf(sizeText(piece.length)), piece, crlf(''));
  }
  return Buffer.concat([...parts, crlf(last, ...trailers, '')]);
}
/** A framing with a well-formed body of `body` and these header lines; `rule` as the issue states it. */
const withLines = (name: string, rule: Rule, lines: (length: number) => string[], encode: 'cl' | 'chunked', http10 = false): Framing => ({
  name,
  rule,
  http10,
  frame: (body) => ({ lines: lines(body.length), bytes: encode === 'cl' ? body : chunked(body), body }),
});
/** A framing whose chunked body is written by `write` (odd sizes, extensions, trailers). */
const chunkedAs = (name: string, rule: Rule, write: (body: Buffer) => Buffer): Framing => ({
  name,
  rule,
  bodyFault: rule !== 'valid',
  frame: (body) => ({ lines: ['Transfer-Encoding: chunked'], bytes: write(body), body }),
});

const FRAMINGS: readonly Framing[] = [
  { name: 'none', rule: 'valid', frame: () => ({ lines: [], bytes: Buffer.alloc(0), body: undefined }) },
  withLines('content-length', 'valid', (n) => [`Content-Length: ${n}`], 'cl'),
  withLines('content-length on HTTP/1.0', 'valid', (n) => [`Content-Length: ${n}`], 'cl', true),
  chunkedAs('chunked', 'valid', (b) => chunked(b)),
  chunkedAs('chunked in 7-byte chunks', 'valid', (b) => chunked(b, 7)),
  chunkedAs('chunked with extensions', 'valid', (b) => chunked(b, 16, (n) => `${n.toString(16)};ext="x";e2=y`, '0;last=1')),
  chunkedAs('chunked with a trailer', 'valid', (b) => chunked(b, 16, undefined, '0', ['X-Trailer: 1'])),
  chunkedAs('chunked with a Content-Length trailer', 'unsettled', (b) => chunked(b, 16, undefined, '0', ['Content-Length: 3'])),
  chunkedAs('chunk sizes with leading zeros', 'valid', (b) => chunked(b, 16, (n) => `000${n.toString(16)}`)),
  chunkedAs('chunk sizes in upper case', 'valid', (b) => chunked(b, 16, (n) => n.toString(16).toUpperCase())),
  chunkedAs('chunk size with 0x', 'invalid', (b) => chunked(b, 16, (n) => `0x${n.toString(16)}`)),
  chunkedAs('chunk size overflowing 64 bits', 'invalid', (b) => chunked(b, 16, (n) => `1000000000000000${n.toString(16)}`)),
  chunkedAs('negative chunk size', 'invalid', (b) => chunked(b, 16, (n) => `-${n.toString(16)}`)),
  chunkedAs('chunk size with a space before its end', 'unsettled', (b) => chunked(b, 16, (n) => `${n.toString(16)} `)),
  chunkedAs('chunked with bare LF line ends', 'invalid', (b) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\n`), b, Buffer.from('\n0\n\n')])),
  chunkedAs('chunk data longer than its size', 'invalid', (b) => chunked(b, 16, (n) => Math.max(1, n - 3).toString(16))),
  {
    name: 'Content-Length shorter than the body (a lying length: the rest is a request)',
    // Node answers the bytes after a `Connection: close` request with 400 and closes, which may cut the first answer.
    rule: 'unsettled',
    frame: (body, smuggled) => ({ lines: [`Content-Length: ${body.length}`], bytes: Buffer.concat([body, smuggled]), body }),
  },
  withLines('chunked on HTTP/1.0', 'invalid', () => ['Transfer-Encoding: chunked'], 'chunked', true),
  withLines('Content-Length then Transfer-Encoding', 'invalid', (n) => [`Content-Length: ${n}`, 'Transfer-Encoding: chunked'], 'chunked'),
  withLines('Transfer-Encoding then Content-Length', 'invalid', (n) => ['Transfer-Encoding: chunked', `Content-Length: ${n}`], 'chunked'),
  withLines('Transfer-Encoding with Content-Length 0', 'invalid', () => ['Content-Length: 0', 'Transfer-Encoding: chunked'], 'chunked'),
  withLines('two equal Content-Length lines', 'invalid', (n) => [`Content-Length: ${n}`, `Content-Length: ${n}`], 'cl'),
  withLines('two different Content-Length lines', 'invalid', (n) => [`Content-Length: ${n}`, `Content-Length: ${n + 5}`], 'cl'),
  withLines('a Content-Length list', 'invalid', (n) => [`Content-Length: ${n}, ${n}`], 'cl'),
  withLines('a signed Content-Length', 'invalid', (n) => [`Content-Length: +${n}`], 'cl'),
  withLines('a hex Content-Length', 'invalid', (n) => [`Content-Length: 0x${n.toString(16)}`], 'cl'),
  withLines('two Transfer-Encoding: chunked lines', 'invalid', () => ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'], 'chunked'),
  withLines('Transfer-Encoding: chunked, chunked', 'invalid', () => ['Transfer-Encoding: chunked, chunked'], 'chunked'),
  withLines('Transfer-Encoding: gzip, chunked', 'invalid', () => ['Transfer-Encoding: gzip, chunked'], 'chunked'),
  withLines('Transfer-Encoding: chunked, identity', 'invalid', () => ['Transfer-Encoding: chunked, identity'], 'chunked'),
  withLines('Transfer-Encoding: identity', 'invalid', () => ['Transfer-Encoding: identity'], 'cl'),
  withLines('Transfer-Encoding: xchunked', 'invalid', () => ['Transfer-Encoding: xchunked'], 'chunked'),
  withLines('Transfer-Encoding: Chunked', 'unsettled', () => ['Transfer-Encoding: Chunked'], 'chunked'),
  withLines('Transfer-Encoding: CHUNKED', 'unsettled', () => ['Transfer-Encoding: CHUNKED'], 'chunked'),
  withLines('Transfer-Encoding obs-folded', 'invalid', () => ['Transfer-Encoding:', ' chunked'], 'chunked'),
  withLines('Transfer-Encoding folded after a coding', 'invalid', () => ['Transfer-Encoding: gzip,', ' chunked'], 'chunked'),
  withLines('Content-Length obs-folded', 'invalid', (n) => ['Content-Length:', ` ${n}`], 'cl'),
  withLines('a space before the colon of Transfer-Encoding', 'invalid', () => ['Transfer-Encoding : chunked'], 'chunked'),
  withLines('a space before the colon of Content-Length', 'invalid', (n) => [`Content-Length : ${n}`], 'cl'),
  withLines('a tab before the colon of Transfer-Encoding', 'invalid', () => ['Transfer-Encoding\t: chunked'], 'chunked'),
  withLines('a tab around chunked', 'unsettled', () => ['Transfer-Encoding:\tchunked\t'], 'chunked'),
  withLines('a vertical tab after chunked', 'invalid', () => ['Transfer-Encoding: chunked\x0b'], 'chunked'),
  withLines('a form feed before chunked', 'invalid', () => ['Transfer-Encoding: \x0cchunked'], 'chunked'),
  withLines('a vertical tab in Content-Length', 'invalid', (n) => [`Content-Length: \x0b${n}`], 'cl'),
];

type RouteKind = 'rpc' | 'passthrough' | 'excluded' | 'own' | 'websocket';

interface Payload {
  readonly name: string;
  bytes(smuggled: Buffer): Buffer;
}
/** The body is the smuggled request itself: what a server reading an unframed body takes for the next request. */
const SMUGGLE: Payload = { name: 'a request as the body', bytes: (smuggled) => smuggled };
/** A valid /rpc body, so the call reaches the forwarder (a request as the body is INVALID_JSON before that). */
const RPC_JSON = '{"workbookId":"wb_demo_marketing"}';
const JSON_BODY: Payload = { name: 'a JSON body', bytes: () => Buffer.from(RPC_JSON) };

interface Route {
  readonly name: string;
  readonly kind: RouteKind;
  readonly path: string;
  readonly lines: readonly string[];
  readonly payloads: readonly Payload[];
}

const ROUTES: readonly Route[] = [
  { name: '/rpc at the head version', kind: 'rpc', path: '/rpc/getWorkbook', lines: ['x-dl-api-version: 3', 'content-type: application/json'], payloads: [JSON_BODY, SMUGGLE] },
  { name: '/rpc translated from version 1', kind: 'rpc', path: '/rpc/getWorkbook', lines: ['x-dl-api-version: 1', 'content-type: application/json'], payloads: [JSON_BODY, SMUGGLE] },
  { name: 'pass-through', kind: 'passthrough', path: '/assets/app.js', lines: [], payloads: [SMUGGLE] },
  { name: 'an excluded prefix', kind: 'excluded', path: `${EXCLUDED}/users`, lines: [], payloads: [SMUGGLE] },
  { name: 'an own route (/versions)', kind: 'own', path: '/versions', lines: [], payloads: [SMUGGLE] },
  { name: 'an own route (/json/)', kind: 'own', path: '/json/', lines: [], payloads: [SMUGGLE] },
  {
    name: 'a WebSocket upgrade',
    kind: 'websocket',
    path: '/ws',
    lines: ['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13'],
    payloads: [SMUGGLE],
  },
];

interface Case {
  readonly id: number;
  readonly method: Method;
  readonly framing: Framing;
  readonly route: Route;
  readonly payload: Payload;
  readonly label: string;
  readonly bytes: Buffer;
  /** The body the client sent, decoded (undefined: none). */
  readonly body: Buffer | undefined;
}

/** The smuggled request of case `id`: a delete sent straight to the backend, carrying the case's id. */
const smuggledRequest = (id: number) =>
  Buffer.concat([
    crlf('POST /rpc/deleteWorkbook HTTP/1.1', 'host: 127.0.0.1', `x-case: ${id}`, 'x-smuggled: yes', 'x-dl-api-version: 3', 'content-type: application/json', `content-length: ${RPC_JSON.length}`, ''),
    Buffer.from(RPC_JSON),
  ]);
const SMUGGLED_LINE = 'POST /rpc/deleteWorkbook';

/** The cartesian product method × framing × route × payload, numbered from `firstId`. */
function corpus(firstId: number): Case[] {
  const cases: Case[] = [];
  for (const method of METHODS)
    for (const framing of FRAMINGS)
      for (const route of ROUTES)
        for (const payload of route.payloads) {
          const id = firstId + cases.length;
          const smuggled = smuggledRequest(id);
          const framed = framing.frame(payload.bytes(smuggled), smuggled);
          const close = route.kind === 'websocket' ? [] : ['Connection: close'];
          const head = crlf(`${method} ${route.path} HTTP/1.${framing.http10 ? 0 : 1}`, 'Host: 127.0.0.1', `x-case: ${id}`, ...route.lines, ...close, ...framed.lines, '');
          const label = `${method} × ${framing.name} × ${route.name}${route.payloads.length > 1 ? ` (${payload.name})` : ''}`;
          cases.push({ id, method, framing, route, payload, label, bytes: Buffer.concat([head, framed.bytes]), body: framed.body });
        }
  return cases;
}

// ---- what the gateway should do with a case ----

/** 'forward': exactly one request upstream; 'refuse': a 4xx and nothing upstream; 'local': answered, nothing upstream. */
type Verdict = 'forward' | 'refuse' | 'local' | 'unsettled';

function verdictOf(c: Case): Verdict {
  if (REFUSED_METHODS.has(c.method)) return 'refuse';
  const hasBody = c.body !== undefined;
  const rpcCall = c.route.kind === 'rpc' && c.method === 'POST';
  // Routes answered from the head alone (own, excluded, a /rpc 405) need not read a body, nor see its faults.
  const readsBody = c.route.kind === 'passthrough' || c.route.kind === 'websocket' || rpcCall;
  if (c.framing.rule === 'invalid') return readsBody || !c.framing.bodyFault ? 'refuse' : 'local';
  if (c.framing.rule === 'unsettled') return 'unsettled';
  if (c.route.kind === 'websocket' && c.method === 'GET' && hasBody) return 'refuse';
  if (c.route.kind === 'websocket' && c.framing.http10) return 'unsettled';
  if (!readsBody) return 'local';
  // Only a POST with a JSON body reaches the /rpc forwarder; the rest is INVALID_JSON and the like.
  if (rpcCall && (c.payload !== JSON_BODY || !hasBody)) return 'local';
  return 'forward';
}

// ---- running and judging ----

interface Seen {
  requests: Http1Request[];
  /** Bytes left unparsed on a connection still open: a request the upstream may yet complete from later bytes. */
  stray: string;
  /** Bytes left unparsed on a connection the hop closed: an aborted request the upstream never acted on. */
  aborted: string;
  tunnel: string;
}

/**
 * A smuggled request that a hop forwarded as a request of its own (it carries the hop's X-Request-Id, which the
 * smuggled bytes do not): the client pipelined it after a lying length, and the hop read it as the next request.
 */
const followUp = (r: Http1Request) => headerOf(r, 'x-smuggled') !== undefined && headerOf(r, 'x-request-id') !== undefined;
const PIPELINED = '+pipelined';

/** The upstream's log per case id: each request by its x-case, anything without one charged to the case before it. */
function seenByCase(upstream: Http1Upstream): { byCase: Map<string, Seen>; unattributed: string[] } {
  const byCase = new Map<string, Seen>();
  const unattributed: string[] = [];
  const entry = (id: string) => {
    let seen = byCase.get(id);
    if (!seen) byCase.set(id, (seen = { requests: [], stray: '', aborted: '', tunnel: '' }));
    return seen;
  };
  for (const conn of upstream.connections) {
    let current: string | undefined;
    for (const request of conn.requests) {
      current = headerOf(request, 'x-case') ?? current;
      // Before any case on its connection, a request without the smuggled mark is the gateway's own (a probe).
      if (current === undefined && headerOf(request, 'x-smuggled') === undefined) continue;
      if (current === undefined) unattributed.push(`connection ${conn.id}: ${request.requestLine}`);
      else entry(followUp(request) ? `${current}${PIPELINED}` : current).requests.push(request);
    }
    if (conn.tunnel.length > 0 && current !== undefined) entry(current).tunnel += conn.tunnel.toString('latin1');
    // Stray bytes holding a head of their own (a request never completed) belong to its case.
    const stray = conn.stray.toString('latin1');
    const owner = /^x-case: *(\S+)/im.exec(stray)?.[1] ?? current;
    if (stray && owner === undefined) unattributed.push(`connection ${conn.id}: stray ${JSON.stringify(stray)}`);
    else if (stray && owner !== undefined && conn.closed) entry(owner).aborted += stray;
    else if (stray && owner !== undefined) entry(owner).stray += stray;
  }
  return { byCase, unattributed };
}

const show = (r: Http1Request) => `${r.requestLine} [${r.framing}] ${JSON.stringify(r.body.toString('latin1'))}`;

/** What the upstream should read as the body of the forwarded request of `c`. */
function expectedBody(c: Case, translated: Map<string, string>): string {
  if (c.route.kind === 'rpc') return translated.get(c.route.name) ?? '(no baseline)';
  return c.body?.toString('latin1') ?? '';
}

/** The no-smuggling assertions for one case: problems as sentences, none when it holds. */
function smugglingProblems(c: Case, seen: Seen | undefined, translated: Map<string, string>, pipelined: Seen | undefined): string[] {
  const problems: string[] = [];
  // Only the WebSocket route leaves the client's connection open (no `Connection: close`): elsewhere no hop may
  // read past the first request, so a follow-up forwarded anyway is charged to the case.
  if (pipelined && c.route.kind !== 'websocket') problems.push(`a hop forwarded the bytes after the first request: ${pipelined.requests.map(show).join(' | ')}`);
  if (!seen) return problems;
  if (seen.requests.length > 1) problems.push(`upstream parsed ${seen.requests.length} requests: ${seen.requests.map(show).join(' | ')}`);
  const first = seen.requests[0];
  if (first) {
    const line = `${first.method} ${first.target}`;
    const sent = c.route.kind === 'rpc' ? `POST ${c.route.path}` : `${c.method} ${c.route.path}`;
    if (line !== sent || first.requestLine.startsWith(SMUGGLED_LINE)) problems.push(`upstream read "${first.requestLine}", not "${sent} HTTP/1.1"`);
    const body = first.body.toString('latin1');
    if (body !== expectedBody(c, translated)) problems.push(`upstream read the body ${JSON.stringify(body)}, not ${JSON.stringify(expectedBody(c, translated))}`);
  }
  if (seen.stray) problems.push(`upstream was left the stray bytes ${JSON.stringify(seen.stray)} on a connection still open`);
  if (seen.tunnel) problems.push(`the tunnel carried ${JSON.stringify(seen.tunnel)}`);
  return problems;
}

/** The framing rule's assertions (gateway only): problems as sentences. */
function ruleProblems(c: Case, seen: Seen | undefined, result: RawResult): string[] {
  const verdict = verdictOf(c);
  const status = result.responses[0]?.status;
  const reached = (seen?.requests.length ?? 0) + (seen?.stray || seen?.aborted ? 1 : 0);
  const answered = status === undefined ? `no answer (${result.closedBy})` : `${status}`;
  switch (verdict) {
    case 'refuse':
      if (status === undefined || status < 400 || status >= 500 || reached > 0) return [`should be refused with a 4xx, reaching nothing: got ${answered}, upstream saw ${reached}`];
      return [];
    case 'local':
      if (status === undefined || reached > 0) return [`should be answered by the gateway alone: got ${answered}, upstream saw ${reached}`];
      return [];
    case 'forward':
      if (status === undefined || seen?.requests.length !== 1) return [`should reach the upstream once: got ${answered}, upstream saw ${reached}`];
      return [];
    case 'unsettled':
      return [];
  }
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function pooled<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

interface Run {
  readonly cases: readonly Case[];
  readonly results: readonly RawResult[];
}

const send = (url: string, c: Case) => rawExchange(url, [c.bytes], { deadlineMs: CASE_DEADLINE_MS, responses: 1 });

let upstream: Http1Upstream;
let stack: Stack;
let nginx: RunningNginx;
/** The body the upstream reads for the /rpc call of each route sent plainly (a JSON body, Content-Length). */
const translated = new Map<string, string>();
let viaGateway: Run;
let viaNginx: Run;
let byCase: Map<string, Seen>;
let unattributed: string[];

beforeAll(async () => {
  upstream = await startHttp1Upstream();
  stack = await startStack({ upstreamUrl: upstream.url, config: { passthrough: { enabled: true, exclude: [EXCLUDED] } } });
  nginx = await startNginxWith(nginxBinary, (listen) => nginxFront(stack.gateway.runtime().config, { gateway: new URL(stack.url), listen }));
  // The baseline: each /rpc route's JSON body sent plainly, to learn what the gateway forwards for it.
  const plain = FRAMINGS.find((f) => f.name === 'content-length') as Framing;
  const baselines = corpus(-1_000_000).filter((c) => c.route.kind === 'rpc' && c.method === 'POST' && c.framing === plain && c.payload === JSON_BODY);
  for (const c of baselines) {
    const result = await send(stack.url, c);
    expect(result.responses[0], `baseline ${c.label}`).toBeDefined();
    const seen = upstream.requests().filter((r) => headerOf(r, 'x-case') === String(c.id));
    expect(seen.length, `baseline ${c.label}: ${seen.map(show).join(' | ')}`).toBe(1);
    translated.set(c.route.name, (seen[0] as Http1Request).body.toString('latin1'));
  }
  const started = performance.now();
  const gatewayCases = corpus(0);
  viaGateway = { cases: gatewayCases, results: await pooled(gatewayCases, CONCURRENCY, (c) => send(stack.url, c)) };
  const nginxCases = corpus(gatewayCases.length);
  viaNginx = { cases: nginxCases, results: await pooled(nginxCases, CONCURRENCY, (c) => send(nginx.url, c)) };
  // Let late bytes land on the upstream before it is read.
  await new Promise((resolve) => setTimeout(resolve, 300));
  ({ byCase, unattributed } = seenByCase(upstream));
  console.info(`framing corpus: ${gatewayCases.length} cases through the gateway, ${nginxCases.length} through nginx, ${Math.round(performance.now() - started)} ms`);
}, 120_000);

afterAll(async () => {
  await nginx?.stop();
  await stack?.close();
  await upstream?.close();
});

/** The failures of `run` for the route class `kind`, one line per case. */
function failures(run: Run, kind: RouteKind, judge: (c: Case, seen: Seen | undefined, result: RawResult, pipelined: Seen | undefined) => string[]): string[] {
  const out: string[] = [];
  run.cases.forEach((c, i) => {
    if (c.route.kind !== kind) return;
    const problems = judge(c, byCase.get(String(c.id)), run.results[i] as RawResult, byCase.get(`${c.id}${PIPELINED}`));
    if (problems.length > 0) out.push(`${c.label}: ${problems.join('; ')}`);
  });
  return out;
}

const KINDS: readonly RouteKind[] = ['rpc', 'passthrough', 'excluded', 'own', 'websocket'];

describe('framing corpus', () => {
  it('is the whole product, sent', () => {
    const expected = METHODS.length * FRAMINGS.length * ROUTES.reduce((n, r) => n + r.payloads.length, 0);
    expect(viaGateway.cases.length).toBe(expected);
    expect(viaNginx.cases.length).toBe(expected);
    // The corpus exercised both outcomes: some cases reached the upstream, some were refused.
    const reached = viaGateway.cases.filter((c) => byCase.has(String(c.id))).length;
    expect(reached).toBeGreaterThan(100);
    expect(reached).toBeLessThan(expected);
  });

  it('every byte the upstream read belongs to a case', () => {
    expect(unattributed).toEqual([]);
  });
});

describe.each([
  ['through the gateway', () => viaGateway],
  ['through the nginx front', () => viaNginx],
] as const)('%s', (_hop, run) => {
  it.each(KINDS)('%s: the upstream reads at most one request per case, the one sent, with exactly its body', (kind) => {
    expect(failures(run(), kind, (c, seen, _result, pipelined) => smugglingProblems(c, seen, translated, pipelined))).toEqual([]);
  });
});

describe('the framing rule, through the gateway', () => {
  it.each(KINDS)('%s: refused forms get a 4xx and reach nobody, accepted ones arrive once', (kind) => {
    expect(failures(viaGateway, kind, ruleProblems)).toEqual([]);
  });
});
