// The hot path: POST /rpc/<method> → resolve version → validate → translate → forward → answer.
// Every request ends in exactly one answer (or a cut, when a streamed answer breaks), and the log line
// and metrics record what the client got: 499 only when the client left first.

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { BackendCallError, GatewayError, isGatewayError } from '../core/errors.js';
import type { MigrationContext } from '../core/contract/types.js';
import { type CalendarEntry, findEntry } from '../core/lifecycle/calendar.js';
import { type LifecycleHeaders, lifecycleHeaders } from '../core/lifecycle/headers.js';
import { translateRequest, translateResponse, validateRequest } from '../core/translate/engine.js';
import { type MethodPlan, requirePlan } from '../core/translate/plan.js';
import { resolveVersion } from '../core/version/resolve.js';
import { isJsonMediaType } from '../core/media-type.js';
import { backendRefusal, type Refusal } from './backend-refusal.js';
import { parseJson, readBody, withoutBom } from './body.js';
import { argumentsBody, mediaTypeOptional } from './empty-body.js';
import { guardJson } from './json-guard.js';
import { Caller } from './client-id.js';
import { forwardableHeaders, ownAnswerHeaders, requestIdOf } from './headers.js';
import { Departure } from './departure.js';
import { forwardedHeaders } from './forwarded.js';
import { onExchangeEnd } from './exchange-end.js';
import { RequestMigrationContext } from './migration-context.js';
import { socketAnswer } from './node-answers.js';
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
const lifecycleCache = new WeakMap<CalendarEntry, LifecycleHeaders>();
function deprecationHeaders(entry: CalendarEntry, now: Date): LifecycleHeaders {
  let headers = lifecycleCache.get(entry);
  if (!headers) lifecycleCache.set(entry, (headers = lifecycleHeaders(entry, now)));
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
  /** The answer had started when the backend failed: the client got a cut response. */
  cut?: boolean;
}

export function handleRpc(rt: Runtime, req: IncomingMessage, res: ServerResponse): void {
  new RpcCall(rt, req, res).run();
}

/** One /rpc request, from its head to its one answer. */
class RpcCall {
  private readonly started = performance.now();
  private readonly requestId: string;
  private readonly log: RequestLog;
  private readonly departure = new Departure();
  private readonly caller: Caller;
  /** The gateway's Deprecation/Sunset/Link when the resolved version is deprecated. */
  private lifecycle: LifecycleHeaders | undefined;
  private readonly done: () => void;

  constructor(
    private readonly rt: Runtime,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.requestId = requestIdOf(req.headers);
    res.setHeader('x-request-id', this.requestId);
    this.log = { requestId: this.requestId, versionAsked: req.headers['x-dl-api-version'], client: '' };
    this.caller = new Caller(req.headers);
    this.done = rt.track();
    if (rt.logger.isLevelEnabled('debug')) rt.logger.debug({ requestId: this.requestId, headers: req.headers, url: req.url }, 'request received');
    onExchangeEnd(req, res, () => this.ended());
  }

  run(): void {
    const { rt, req, res, log } = this;
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
      if (resolved.deprecated) this.setLifecycle(resolved.entry, now);
      const plan = requirePlan(rt.plans, rt.contract, resolved.version, method);
      if (plan.unservable) {
        throw new GatewayError('VERSION_TRANSLATION_FAILED', plan.unservable, { method, field: null });
      }
      if (!mediaTypeOptional(plan.spec, req.headers) && !isJsonMediaType(req.headers['content-type'])) {
        throw new GatewayError('UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json', {
          received: String(req.headers['content-type'] ?? '').slice(0, 100),
        });
      }
      readBody(req, rt.config.limits.bodyBytes, () => this.continueIfExpected()).then(
        (raw) => this.forward(plan, withoutBom(raw)).catch((e: unknown) => this.fail(e)),
        (e: unknown) => {
          // The connection went away mid-body (the client left, or the server answered 408 on it): nobody to answer.
          if (!isGatewayError(e) && req.socket?.destroyed !== false) return;
          this.fail(e);
        },
      );
    } catch (e) {
      this.fail(e);
    }
  }

  private setLifecycle(entry: CalendarEntry, now: Date): void {
    this.lifecycle = deprecationHeaders(entry, now);
    for (const name in this.lifecycle) this.res.setHeader(name, this.lifecycle[name] as string);
  }

  /** Expect: 100-continue is answered only once the request's head passed every check. */
  private continueIfExpected(): void {
    if (this.req.headers.expect !== undefined) this.res.writeContinue();
  }

  /** The exchange is over: release it and record what the client got. */
  private ended(): void {
    const { rt, res, log } = this;
    this.done();
    const finished = res.writableFinished;
    const bySocket = finished ? undefined : socketAnswer(res);
    // Whatever ended it, work still under way for this request stops; the client left first only when
    // nothing else (a cut, the server's own answer on the connection) ended the exchange.
    if (!finished) this.departure.leave();
    const left = !finished && bySocket === undefined && !log.cut;
    const logged = rt.requestLog.isLevelEnabled('info');
    // Who called is only needed for the log line and deprecated-version metrics; it may cost a hash.
    if (logged || log.deprecated) log.client = this.caller.id;
    log.status = left ? 499 : (bySocket ?? res.statusCode);
    log.durationMs = Math.round((performance.now() - this.started) * 100) / 100;
    if (logged) rt.requestLog.info(log, 'request');
    rt.metrics.recordRequest({
      version: log.version,
      method: log.known && log.method ? log.method : 'unknown',
      status: log.status,
      durationMs: log.durationMs,
      upstreamMs: log.upstreamMs,
      translateMs: log.translateMs,
      error: log.error,
      deprecated: log.deprecated ?? false,
      client: log.client,
    });
  }

  /** The one exit for failures: a refusal of the backend's, or the gateway's problem. */
  private fail(e: unknown): void {
    const { rt, res, log } = this;
    if (res.headersSent) {
      // The answer was streaming when the backend failed: cut it, so that it cannot look complete.
      log.cut = true;
      log.error ??= isGatewayError(e) ? e.code : 'INTERNAL_ERROR';
      res.destroy();
      return;
    }
    if (e instanceof BackendCallError) {
      // A migration's own backend call was refused: the client gets the backend's answer, by the rule.
      this.answerRefusal(backendRefusal(e.status, e.headers, e.raw));
      return;
    }
    const error = isGatewayError(e) ? e : new GatewayError('INTERNAL_ERROR', 'the gateway failed to handle this request', {});
    if (!isGatewayError(e)) rt.logger.error({ requestId: this.requestId, err: e }, 'unexpected failure');
    log.error = error.code;
    if (error.code === 'API_VERSION_SUNSET') this.sunsetHeaders(error);
    // A refused body may still be arriving (or, after Expect, may never come): close instead of draining it.
    if (error.code === 'PAYLOAD_TOO_LARGE' || (this.req.headers.expect !== undefined && !this.req.complete)) res.setHeader('connection', 'close');
    sendProblem(res, error, this.requestId);
  }

  /** A 410 still says which version it is about, its dates and guide, and (in a brownout window) when to retry. */
  private sunsetHeaders(error: GatewayError): void {
    const { version, brownoutEnds } = error.details;
    if (typeof version !== 'number') return;
    // Sunset and brownout refusals still count against their version (and, in a brownout, its client).
    this.log.version = version;
    this.log.deprecated = error.details.brownout === true;
    this.res.setHeader('x-dl-api-version', String(version));
    const now = this.rt.clock();
    const entry = findEntry(this.rt.calendar, version);
    if (entry) this.setLifecycle(entry, now);
    if (typeof brownoutEnds === 'string') {
      this.res.setHeader('retry-after', String(Math.max(1, Math.ceil((Date.parse(brownoutEnds) - now.getTime()) / 1000))));
    }
  }

  private answerRefusal(refusal: Refusal): void {
    const { res, log } = this;
    if ('passedOn' in refusal) {
      const { status, headers, body } = refusal.passedOn;
      log.error = 'BACKEND_REFUSED';
      ownAnswerHeaders(headers, this.lifecycle);
      headers['content-length'] = body.byteLength;
      res.writeHead(status, headers);
      res.end(body);
      return;
    }
    ownAnswerHeaders(refusal.headers, this.lifecycle);
    for (const name in refusal.headers) res.setHeader(name, refusal.headers[name] as string | string[]);
    this.fail(refusal.problem);
  }

  private async forward(plan: MethodPlan, raw: Buffer): Promise<void> {
    const { rt, req, res, log } = this;
    raw = argumentsBody(plan.spec, req.headers, raw);
    const json = parseJson(raw);
    guardJson(raw, json, rt.config.limits.jsonDepth);
    const valid = validateRequest(plan, json);
    // Only plans that migrate something need a migration context (and may call the backend).
    const ctx =
      plan.passThrough && !plan.checksResponse
        ? undefined
        : new RequestMigrationContext(rt, req, this.caller, this.requestId, this.departure, plan.version);
    let body = raw;
    if (ctx && !plan.passThrough) {
      const t0 = performance.now();
      body = Buffer.from(JSON.stringify(await translateRequest(plan, valid, ctx)));
      log.translateMs = Math.round((performance.now() - t0) * 100) / 100;
    }
    if (this.departure.gone || res.destroyed) return;
    const upstreamStarted = performance.now();
    let status = 0;
    let answerHeaders: IncomingHttpHeaders = {};
    rt.forwarder.forward({
      departure: this.departure,
      method: plan.upstreamMethod,
      body,
      headers: upstreamHeaders(req, rt.contract.head, plan, this.requestId),
      onHead: (upstreamStatus, headers) => {
        log.upstreamMs = Math.round(performance.now() - upstreamStarted);
        status = upstreamStatus;
        answerHeaders = headers;
        ownAnswerHeaders(headers, this.lifecycle);
        return this.head(plan, upstreamStatus, headers);
      },
      // Buffered answers: refusals (any plan), and successes of plans that check responses (they have a context).
      onBody: (answer) => {
        if (status < 200 || status >= 300) this.answerRefusal(backendRefusal(status, answerHeaders, answer));
        else this.checked(plan, status, answerHeaders, answer, ctx as MigrationContext).catch((e: unknown) => this.fail(e));
      },
      onError: (error) => {
        log.upstreamMs ??= Math.round(performance.now() - upstreamStarted);
        this.fail(error);
      },
    });
  }

  /**
   * The backend's answer head is in: stream a success to the client (returns the response, head written),
   * or return how many bytes may be buffered: for a refusal, or for `checked`.
   */
  private head(plan: MethodPlan, status: number, headers: IncomingHttpHeaders): ServerResponse | number {
    if (status < 200 || status >= 300) return this.rt.config.limits.responseBytes;
    if (!isJsonMediaType(headers['content-type'])) {
      throw broken(`content-type ${String(headers['content-type'] ?? 'none').slice(0, 80)}`);
    }
    if (!plan.checksResponse) {
      this.res.writeHead(status, headers);
      return this.res;
    }
    const encoding = headers['content-encoding'];
    if (encoding && encoding !== 'identity') throw broken(`unexpected content-encoding ${encoding}`);
    return this.rt.config.limits.responseBytes;
  }

  /** A buffered success: guarded against objects newer than the client's version and migrated down. */
  private async checked(plan: MethodPlan, status: number, headers: IncomingHttpHeaders, raw: Buffer, ctx: MigrationContext): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw broken('the body is not valid JSON');
    }
    const migrated = await translateResponse(plan, parsed, ctx);
    if (this.departure.gone || this.res.destroyed) return;
    const text = JSON.stringify(migrated);
    delete headers['content-encoding'];
    headers['content-length'] = String(Buffer.byteLength(text));
    this.res.writeHead(status, headers);
    this.res.end(text);
  }
}

/** The request headers the backend gets: the client's forwardable ones plus the gateway's own. */
function upstreamHeaders(req: IncomingMessage, head: number, plan: MethodPlan, requestId: string): Record<string, string | string[]> {
  const out = forwardableHeaders(req.headers);
  Object.assign(out, forwardedHeaders(req, false));
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
