// The hot path: POST /rpc/<method> → resolve version → validate → translate → forward → answer.

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { BackendCallError, GatewayError, isGatewayError } from '../core/errors.js';
import type { Json, MigrationContext } from '../core/contract/types.js';
import type { CalendarEntry } from '../core/lifecycle/calendar.js';
import { lifecycleHeaders } from '../core/lifecycle/headers.js';
import { translateRequest, translateResponse, validateRequest } from '../core/translate/engine.js';
import { type MethodPlan, requirePlan } from '../core/translate/plan.js';
import { resolveVersion } from '../core/version/resolve.js';
import { parseJson, readBody, withoutBom } from './body.js';
import { guardJson } from './json-guard.js';
import { Caller } from './client-id.js';
import { forwardableHeaders, isJsonMediaType, requestIdOf } from './headers.js';
import { Departure } from './departure.js';
import { RequestMigrationContext } from './migration-context.js';
import { sendProblem } from './problem.js';
import type { Runtime } from './runtime.js';

// Method names route the request and build the upstream path: a strict allow-list shape.
const RPC_PATH = /^\/rpc\/([A-Za-z][A-Za-z0-9_]{0,63})$/;

const notFound = (path: string) =>
  new GatewayError('ENDPOINT_NOT_FOUND', 'no such endpoint; methods are called as POST /rpc/<method>', {
    path: path.slice(0, 200),
    availableIn: [],
  });

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
  const log: RequestLog = { requestId, versionAsked: req.headers['x-dl-api-version'], client: '' };
  if (rt.logger.isLevelEnabled('debug')) rt.logger.debug({ requestId, headers: req.headers, url: req.url }, 'request received');
  const done = rt.track();
  const departure = new Departure();
  const caller = new Caller(req.headers);
  res.once('close', () => {
    done();
    if (!res.writableFinished) departure.leave();
    const logged = rt.requestLog.isLevelEnabled('info');
    // Who called is only needed for the log line and deprecated-version metrics; it may cost a hash.
    if (logged || log.deprecated) log.client = caller.id;
    log.status = res.statusCode;
    log.durationMs = Math.round((performance.now() - started) * 100) / 100;
    if (logged) rt.requestLog.info(log, 'request');
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
      .then((raw) => forward(rt, req, res, plan, withoutBom(raw), requestId, log, departure, caller, fail))
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
  departure: Departure,
  caller: Caller,
  fail: (e: unknown) => void,
): Promise<void> {
  const json = parseJson(raw);
  guardJson(raw, json, rt.config.limits.jsonDepth);
  const valid = validateRequest(plan, json);
  // Only plans that migrate something need a migration context (and may call the backend).
  const ctx =
    plan.passThrough && !plan.checksResponse ? undefined : new RequestMigrationContext(rt, req, caller, requestId, departure, plan.version);
  let body = raw;
  if (ctx && !plan.passThrough) {
    const t0 = performance.now();
    body = Buffer.from(JSON.stringify(await translateRequest(plan, valid, ctx)));
    log.translateMs = Math.round((performance.now() - t0) * 100) / 100;
  }
  if (res.destroyed) return;
  const upstreamStarted = performance.now();
  let status = 0;
  let answerHeaders: IncomingHttpHeaders = {};
  rt.forwarder.forward({
    departure,
    method: plan.upstreamMethod,
    body,
    headers: upstreamHeaders(req, rt.contract.head, plan, requestId),
    onHead: (upstreamStatus, headers) => {
      log.upstreamMs = Math.round(performance.now() - upstreamStarted);
      status = upstreamStatus;
      answerHeaders = headers;
      return head(rt, res, plan, upstreamStatus, headers);
    },
    // Only plans that check responses buffer the answer (head returns a limit), and they have a context.
    onBody: (answer) => {
      checked(res, plan, status, answerHeaders, answer, ctx as MigrationContext).catch(fail);
    },
    onError: (error) => {
      log.upstreamMs ??= Math.round(performance.now() - upstreamStarted);
      fail(error);
    },
  });
}

/** The request headers the backend gets: the client's forwardable ones plus the gateway's own. */
function upstreamHeaders(req: IncomingMessage, head: number, plan: MethodPlan, requestId: string): Record<string, string | string[]> {
  const out = forwardableHeaders(req.headers);
  // A buffered (checked) answer must come back uncompressed.
  if (plan.checksResponse) out['accept-encoding'] = 'identity';
  out['x-dl-api-version'] = String(head);
  out['x-dl-client-api-version'] = String(plan.version);
  out['x-request-id'] = requestId;
  out['content-type'] = 'application/json';
  return out;
}

const broken = (reason: string) =>
  new GatewayError('UPSTREAM_UNAVAILABLE', 'the backend answered with a broken response', { reason });

/**
 * The backend's answer head is in: stream it to the client (returns the response, head written), or, when
 * the plan checks responses, return how many bytes may be buffered for `checked`.
 */
function head(rt: Runtime, res: ServerResponse, plan: MethodPlan, status: number, headers: IncomingHttpHeaders): ServerResponse | number {
  if (!isJsonMediaType(headers['content-type'])) {
    throw broken(`content-type ${String(headers['content-type'] ?? 'none').slice(0, 80)}`);
  }
  // The gateway's own headers are already on `res` (version, request id, lifecycle): the backend's copies go.
  delete headers['x-dl-api-version'];
  delete headers['x-request-id'];
  if (!plan.checksResponse || status < 200 || status >= 300) {
    res.writeHead(status, headers);
    return res;
  }
  const encoding = headers['content-encoding'];
  if (encoding && encoding !== 'identity') throw broken(`unexpected content-encoding ${encoding}`);
  return rt.config.limits.responseBytes;
}

/** A buffered answer: guarded against objects newer than the client's version and migrated down. */
async function checked(
  res: ServerResponse,
  plan: MethodPlan,
  status: number,
  headers: IncomingHttpHeaders,
  raw: Buffer,
  ctx: MigrationContext,
): Promise<void> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw broken('the body is not valid JSON');
  }
  const migrated = await translateResponse(plan, parsed, ctx);
  if (res.destroyed) return;
  const text = JSON.stringify(migrated);
  delete headers['content-encoding'];
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(status, headers);
  res.end(text);
}
