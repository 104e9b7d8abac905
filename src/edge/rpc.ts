// The hot path: POST /rpc/<method> → resolve version → validate → translate → forward → answer.

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BackendCallError, GatewayError, isGatewayError } from '../core/errors.js';
import type { Json, MigrationContext } from '../core/contract/types.js';
import type { CalendarEntry } from '../core/lifecycle/calendar.js';
import { lifecycleHeaders } from '../core/lifecycle/headers.js';
import { translateRequest, translateResponse, validateRequest } from '../core/translate/engine.js';
import { type MethodPlan, requirePlan } from '../core/translate/plan.js';
import { resolveVersion } from '../core/version/resolve.js';
import { parseJson, readBody, withoutBom } from './body.js';
import { guardJson } from './json-guard.js';
import { clientIdOf } from './client-id.js';
import { isJsonMediaType, requestIdOf } from './headers.js';
import { sendProblem } from './problem.js';
import type { Runtime } from './runtime.js';

// Method names route the request and build the upstream path: a strict allow-list shape.
const RPC_PATH = /^\/rpc\/([A-Za-z][A-Za-z0-9_]{0,63})$/;

const notFound = (path: string) =>
  new GatewayError('ENDPOINT_NOT_FOUND', 'no such endpoint; methods are called as POST /rpc/<method>', {
    path: path.slice(0, 200),
    availableIn: [],
  });

/** Headers of the client's request that migrations' own backend calls carry too. */
function passThroughHeaders(req: IncomingMessage, requestId: string, clientVersion: number): Record<string, string> {
  const out: Record<string, string> = { 'x-request-id': requestId, 'x-dl-client-api-version': String(clientVersion) };
  for (const name of ['authorization', 'x-dl-org-id', 'x-dl-folderid', 'x-dl-tenantid']) {
    const v = req.headers[name];
    if (typeof v === 'string') out[name] = v;
  }
  return out;
}

function principalOf(req: IncomingMessage): string {
  const auth = req.headers.authorization ?? '';
  const org = req.headers['x-dl-org-id'] ?? '';
  return createHash('sha256').update(`${String(auth)}\0${String(org)}`).digest('base64url').slice(0, 16);
}

// The headers of a deprecated version do not change while it stays deprecated: compute them once per entry.
const lifecycleCache = new WeakMap<CalendarEntry, [string, string][]>();
function deprecationHeaders(entry: CalendarEntry, now: Date): [string, string][] {
  let headers = lifecycleCache.get(entry);
  if (!headers) lifecycleCache.set(entry, (headers = Object.entries(lifecycleHeaders(entry, now))));
  return headers;
}

/** One request's facts, filled in as they become known: the log line and the metrics. */
interface RequestLog {
  requestId: string;
  versionAsked: string | string[] | undefined;
  client: string;
  method?: string;
  /** The method exists in the contract (unknown names are labelled "unknown" in metrics). */
  known?: boolean;
  version?: number;
  deprecated?: boolean;
  status?: number;
  durationMs?: number;
  upstreamMs?: number;
  translateMs?: number;
  error?: string;
}

export function handleRpc(rt: Runtime, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  const requestId = requestIdOf(req.headers);
  res.setHeader('x-request-id', requestId);
  const log: RequestLog = { requestId, versionAsked: req.headers['x-dl-api-version'], client: clientIdOf(req.headers) };
  if (rt.logger.isLevelEnabled('debug')) rt.logger.debug({ requestId, headers: req.headers, url: req.url }, 'request received');
  const done = rt.track();
  res.once('close', () => {
    done();
    log.status = res.statusCode;
    log.durationMs = Math.round((performance.now() - started) * 100) / 100;
    rt.logger.info(log, 'request');
    rt.metrics.recordRequest({
      version: log.version,
      method: log.known && log.method ? log.method : 'unknown',
      status: res.writableFinished ? res.statusCode : 499,
      durationMs: log.durationMs,
      upstreamMs: log.upstreamMs,
      translateMs: log.translateMs,
      error: log.error,
      deprecated: log.deprecated ?? false,
      client: log.client,
    });
  });
  const fail = (e: unknown) => {
    if (e instanceof BackendCallError && e.body && typeof e.body === 'object' && !res.headersSent) {
      // A migration's backend call was refused (401, 403, …): the client gets the backend's answer.
      log.error = 'BACKEND_REFUSED';
      const text = JSON.stringify(e.body);
      res.writeHead(e.status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    const error = isGatewayError(e)
      ? e
      : new GatewayError('INTERNAL_ERROR', 'the gateway failed to handle this request', {});
    if (!isGatewayError(e)) rt.logger.error({ requestId, err: e }, 'unexpected failure');
    log.error = error.code;
    if (error.code === 'API_VERSION_SUNSET' && typeof error.details.version === 'number') {
      // Sunset and brownout refusals still count against their version (and, in a brownout, its client).
      log.version = error.details.version;
      log.deprecated = error.details.brownout === true;
    }
    // A refused body may still be arriving: close the connection instead of draining it.
    if (error.code === 'PAYLOAD_TOO_LARGE') res.setHeader('connection', 'close');
    sendProblem(res, error, requestId);
  };
  try {
    const match = RPC_PATH.exec(req.url ?? '');
    if (!match) throw notFound(req.url ?? '');
    const method = match[1] as string;
    log.method = method;
    log.known = rt.contract.availableIn.has(method);
    if (req.method !== 'POST') {
      throw new GatewayError('METHOD_NOT_ALLOWED', `use POST for /rpc/${method}`, { method: req.method ?? '' });
    }
    const now = rt.clock();
    const resolved = resolveVersion(req.headers['x-dl-api-version'], rt.calendar, now, Math.random());
    log.version = resolved.version;
    log.deprecated = resolved.deprecated;
    res.setHeader('x-dl-api-version', String(resolved.version));
    if (resolved.deprecated) {
      for (const [name, value] of deprecationHeaders(resolved.entry, now)) res.setHeader(name, value);
    }
    const plan = requirePlan(rt.plans, rt.contract, resolved.version, method);
    if (plan.unservable) {
      throw new GatewayError('VERSION_TRANSLATION_FAILED', plan.unservable, { method, field: null });
    }
    if (!isJsonMediaType(req.headers['content-type'])) {
      throw new GatewayError('UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json', {
        received: String(req.headers['content-type'] ?? '').slice(0, 100),
      });
    }
    readBody(req, rt.config.limits.bodyBytes)
      .then((raw) => forward(rt, req, res, plan, withoutBom(raw), requestId, log, fail))
      .catch((e: unknown) => {
        if (!isGatewayError(e) && req.destroyed) return; // the client left mid-body: nobody to answer
        fail(e);
      });
  } catch (e) {
    fail(e);
  }
}

async function forward(
  rt: Runtime,
  req: IncomingMessage,
  res: ServerResponse,
  plan: MethodPlan,
  raw: Buffer,
  requestId: string,
  log: RequestLog,
  fail: (e: unknown) => void,
): Promise<void> {
  const json = parseJson(raw);
  guardJson(raw, json, rt.config.limits.jsonDepth);
  const valid = validateRequest(plan, json);
  const backendHeaders = passThroughHeaders(req, requestId, plan.version);
  // One signal for "the client went away": it ends a migration's backend calls and the forwarded request.
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  let principal: string | undefined;
  const ctx: MigrationContext = {
    clientVersion: plan.version,
    // Hashing the credential costs a little: only migrations that key caches by caller pay it.
    get principal() {
      return (principal ??= principalOf(req));
    },
    state: new Map(),
    callBackend: (m, body) => rt.backend.call(m, body, backendHeaders, gone.signal),
  };
  let body = raw;
  if (!plan.passThrough) {
    const t0 = performance.now();
    body = Buffer.from(JSON.stringify(await translateRequest(plan, valid, ctx)));
    log.translateMs = Math.round((performance.now() - t0) * 100) / 100;
  }
  if (res.destroyed) return;
  const upstreamStarted = performance.now();
  rt.forwarder.forward(req, res, {
    clientGone: gone.signal,
    method: plan.upstreamMethod,
    body,
    headers: {
      'x-dl-api-version': String(rt.contract.head),
      'x-dl-client-api-version': String(plan.version),
      'x-request-id': requestId,
      'content-type': 'application/json',
    },
    identityEncoding: plan.checksResponse,
    onError: (error) => {
      log.upstreamMs = Math.round(performance.now() - upstreamStarted);
      fail(error);
    },
    onResponse: (upstream) => {
      log.upstreamMs = Math.round(performance.now() - upstreamStarted);
      answer(rt, res, plan, upstream, ctx).catch((e: unknown) => {
        upstream.destroy();
        fail(e);
      });
    },
  });
}

const broken = (reason: string) =>
  new GatewayError('UPSTREAM_UNAVAILABLE', 'the backend answered with a broken response', { reason });

/** Streams the backend's answer, or buffers, guards and migrates it down when the plan checks responses. */
async function answer(
  rt: Runtime,
  res: ServerResponse,
  plan: MethodPlan,
  upstream: IncomingMessage,
  ctx: MigrationContext,
): Promise<void> {
  const status = upstream.statusCode ?? 502;
  if (!isJsonMediaType(upstream.headers['content-type'])) {
    throw broken(`content-type ${String(upstream.headers['content-type'] ?? 'none').slice(0, 80)}`);
  }
  // The gateway's own headers are already on `res` (version, request id, lifecycle): the backend's copies go.
  const headers = upstream.headers;
  delete headers['x-dl-api-version'];
  delete headers['x-request-id'];
  const success = status >= 200 && status < 300;
  if (!plan.checksResponse || !success) {
    res.writeHead(status, headers);
    upstream.on('error', () => res.destroy());
    upstream.on('aborted', () => res.destroy());
    upstream.pipe(res);
    return;
  }
  const encoding = upstream.headers['content-encoding'];
  if (encoding && encoding !== 'identity') throw broken(`unexpected content-encoding ${encoding}`);
  const raw = await readUpstream(upstream, rt.config.limits.responseBytes);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw broken('the body is not valid JSON');
  }
  const migrated = await translateResponse(plan, parsed, ctx);
  const text = JSON.stringify(migrated);
  delete headers['content-encoding'];
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(status, headers);
  res.end(text);
}

function readUpstream(upstream: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // The first outcome wins: destroy() below fires 'aborted' synchronously, which must not mask the limit.
    const fail = (error: GatewayError) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    upstream.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        fail(broken(`the answer exceeds the ${limit}-byte limit for checked responses`));
        upstream.destroy();
      } else chunks.push(c);
    });
    upstream.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size));
    });
    upstream.on('error', () => fail(broken('the connection broke mid-answer')));
    upstream.on('aborted', () => fail(broken('the connection broke mid-answer')));
  });
}
