// The hot path, one RpcCall per request, in named steps: route → resolve version → read and validate →
// translate up → forward → answer (stream, or check and translate down). Every failure leaves through
// fail(); every request ends in one answer (or a cut, when a streamed answer breaks), and the log line and
// metrics record what the client got: 499 only when the client left first.

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { BackendCallError, GatewayError, isGatewayError, isIssueList } from '../../core/errors.js';
import type { Json } from '../../core/contract-model/types.js';
import { type CalendarEntry, findEntry, latestAt } from '../../core/lifecycle/calendar.js';
import type { LifecycleHeaders } from '../../core/lifecycle/headers.js';
import { deprecationsUsed } from '../../core/impact/deprecations.js';
import { isJsonMediaType } from '../../core/media-type.js';
import { translateRequest, translateResponse, validateRequest } from '../../core/translate/engine.js';
import type { GuardPolicy } from '../../core/translate/guard.js';
import { type MethodPlan, requirePlan } from '../../core/translate/plan.js';
import { upstreamUnavailable } from '../../core/upstream-errors.js';
import { resolveVersion } from '../../core/version/resolve.js';
import { type AnswerReuse, answerKey, joined } from './answer-reuse.js';
import { backendRefusal, type Refusal } from './backend-refusal.js';
import { parseJson, readBody, withoutBom, argumentsBody, mediaTypeOptional } from './body.js';
import { Caller } from './client-id.js';
import { Departure } from './departure.js';
import { onExchangeEnd } from '../http/exchange-end.js';
import { closeAfter } from '../http/closing.js';
import { setForwardedHeaders, forwardableHeaders, ownAnswerHeaders, requestIdOf } from '../http/headers.js';
import { admit, closedToNewClients } from './impact-admission.js';
import { guardJson } from './json-guard.js';
import { RequestMigrationContext } from './migration-context.js';
import { socketAnswer } from '../http/node-answers.js';
import { endpointNotFound, sendProblem } from '../http/problem.js';
import type { Exchange } from '../../ports/upstream.js';
import type { Runtime } from '../../ports/runtime.js';
import type { Unanswered } from '../http/unanswered.js';
import { setBackendVersion, setClientVersion, setVersionLists } from '../http/version-headers.js';

// Method names route the request and build the upstream path: a strict allow-list shape.
const RPC_PATH = /^\/rpc\/([A-Za-z][A-Za-z0-9_]{0,63})$/;

const EMPTY = Buffer.alloc(0);
/** A translated answer this long or longer is encoded once instead of measured and then encoded again by the write. */
const ENCODED_FROM_CHARS = 16_384;
const NO_HEADERS: Readonly<Record<string, string | string[]>> = Object.freeze({});

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
  /** The preview client (as the calendar lists it) let into an unreleased version. */
  preview?: string;
  status?: number;
  durationMs?: number;
  upstreamMs?: number;
  translateMs?: number;
  error?: string;
  /** The answer had started when the backend failed: the client got a cut response. */
  cut?: boolean;
  /** A translated answer that was looked up among those kept (answer-reuse.ts). */
  translatedAnswer?: AnswerReuse;
}

/** `unanswered`: the listener's list of answers not yet sent, which the call leaves when its exchange ends. */
export function handleRpc(rt: Runtime, req: IncomingMessage, res: ServerResponse, unanswered?: Unanswered): void {
  new RpcCall(rt, req, res, unanswered).run();
}

const ms = (since: number) => Math.round((performance.now() - since) * 100) / 100;

/** One /rpc request, from its head to its one answer; it is also the forwarder's exchange (no per-request closures). */
class RpcCall implements Exchange {
  private readonly started = performance.now();
  private readonly requestId: string;
  private readonly log: RequestLog;
  readonly departure = new Departure();
  private readonly caller: Caller;
  private readonly done: () => void;
  private plan: MethodPlan | undefined;
  /** The gateway's Deprecation/Sunset/Link when the resolved version is deprecated. */
  private lifecycle: LifecycleHeaders | undefined;
  /** Only plans that migrate something get one (and may call the backend). */
  private ctx: RequestMigrationContext | undefined;
  /** The newest version released when the request came in (objects saved above it: the unreleased rule). */
  private releasedThrough = 0;
  // The exchange with the backend: what is sent, and the answer's head once it is in.
  method = '';
  body: Buffer = EMPTY;
  headers: Readonly<Record<string, string | string[]>> = NO_HEADERS;
  /** The call counts in the impact report (its method and version are known, its body valid); the watched paths it sent. */
  private impactRecorded = false;
  private impactPaths: string[] | undefined;
  /** The resolved version is deprecated and closed to new clients: the caller must have been seen on it before. */
  private closedEntry: CalendarEntry | undefined;
  private upstreamStarted = 0;
  private answerStatus = 0;
  private answerHeaders: IncomingHttpHeaders | undefined;

  constructor(
    private readonly rt: Runtime,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly unanswered: Unanswered | undefined,
  ) {
    this.requestId = requestIdOf(req.headers);
    res.setHeader('x-request-id', this.requestId);
    setVersionLists(res, rt.calendar, rt.clock());
    this.log = { requestId: this.requestId, versionAsked: req.headers['x-dl-api-version'], client: '' };
    this.caller = new Caller(req.headers);
    this.done = rt.track();
    if (rt.logger.isLevelEnabled('debug')) rt.logger.debug({ requestId: this.requestId, headers: req.headers, url: req.url }, 'request received');
    onExchangeEnd(req, res, () => this.ended());
  }

  /** The steps up to the body: each may refuse the request; the body is then read asynchronously. */
  run(): void {
    try {
      const method = this.route();
      this.plan = this.resolve(method);
      this.acceptBody(this.plan);
    } catch (e) {
      this.fail(e);
      return;
    }
    void this.proceed(this.plan);
  }

  // ── route ────────────────────────────────────────────────────────────────

  /** POST /rpc/<method>: the method's name. */
  private route(): string {
    const { req, log } = this;
    const match = RPC_PATH.exec(req.url ?? '');
    if (!match) throw endpointNotFound(req.url ?? '');
    const method = match[1] as string;
    log.method = method;
    log.known = this.rt.contract.availableIn.has(method);
    if (req.method !== 'POST') throw new GatewayError('METHOD_NOT_ALLOWED', `use POST for /rpc/${method}`, { method: req.method ?? '' });
    return method;
  }

  // ── resolve version ──────────────────────────────────────────────────────

  /** x-dl-api-version against the calendar now: the answer's version headers, and the method's plan at that version. */
  private resolve(method: string): MethodPlan {
    const { rt, log } = this;
    const now = rt.clock();
    const resolved = resolveVersion(this.req.headers['x-dl-api-version'], rt.calendar, now, Math.random(), this.caller);
    this.releasedThrough = latestAt(rt.calendar, now)?.version ?? 0;
    log.version = resolved.version;
    log.deprecated = resolved.deprecated;
    if (resolved.preview !== undefined) log.preview = resolved.preview;
    this.lifecycle = setClientVersion(this.res, resolved.version, resolved.deprecated ? resolved.entry : undefined, now, rt.calendar, rt.config.routes.prefix);
    if (resolved.deprecated && closedToNewClients(rt.config, resolved.version)) this.closedEntry = resolved.entry;
    const plan = requirePlan(rt.plans, rt.contract, resolved.version, method);
    if (plan.notServed) {
      throw new GatewayError('METHOD_NOT_SERVED_BY_BACKEND', `${method} is not served here: ${plan.notServed}`, {
        method,
        requestedVersion: plan.version,
        backendVersion: plan.head,
        reason: plan.notServed,
      });
    }
    const unrouted = rt.unrouted.get(plan.upstreamMethod);
    if (unrouted !== undefined) {
      throw new GatewayError('NO_BACKEND_ROUTE', `${method} is not served here: ${unrouted}`, {
        method,
        requestedVersion: plan.version,
        backendKind: rt.config.upstream.kind,
        reason: unrouted,
      });
    }
    if (plan.unservable) throw new GatewayError('VERSION_TRANSLATION_FAILED', plan.unservable, { method, field: null });
    return plan;
  }

  // ── read and validate ────────────────────────────────────────────────────

  /** A JSON body, or none for a method that takes no arguments. */
  private acceptBody(plan: MethodPlan): void {
    const type = this.req.headers['content-type'];
    if (!mediaTypeOptional(plan.spec, this.req.headers) && !isJsonMediaType(type)) {
      throw new GatewayError('UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json', { received: String(type ?? '').slice(0, 100) });
    }
  }

  /** The steps from the body on; any failure leaves through fail(). */
  private async proceed(plan: MethodPlan): Promise<void> {
    try {
      if (this.closedEntry) await admit(this.rt.impact, this.rt.config, this.rt.calendar, this.closedEntry, this.caller.id, this.rt.clock());
      const read = await this.read();
      if (read === undefined) return;
      const raw = argumentsBody(plan.spec, this.req.headers, read);
      const valid = this.validate(plan, raw);
      const body = plan.passThrough ? raw : await this.translateUp(plan, valid);
      if (this.departure.gone || this.res.destroyed) return;
      this.forward(plan, body);
    } catch (e) {
      this.fail(e);
    }
  }

  /** The body within the limit, decoded; undefined when the connection went away mid-body (nobody to answer). */
  private async read(): Promise<Buffer | undefined> {
    const { req, res } = this;
    // Expect: 100-continue is answered only now, once the request's head passed every check.
    const beforeRead = req.headers.expect !== undefined ? () => res.writeContinue() : undefined;
    try {
      return withoutBom(await readBody(req, this.rt.config.limits.bodyBytes, beforeRead));
    } catch (e) {
      // The client left, or the server answered 408 on the connection: nobody to answer.
      if (!isGatewayError(e) && req.socket?.destroyed !== false) return undefined;
      throw e;
    }
  }

  /** JSON within the depth bound, valid for the method at the client's version; the context when the plan migrates. */
  private validate(plan: MethodPlan, raw: Buffer): Json {
    const json = parseJson(raw);
    guardJson(raw, json, this.rt.config.limits.jsonDepth);
    const valid = validateRequest(plan, json);
    this.featureDeprecation(plan, valid);
    // Read on the body as sent (not the validated one, which holds the schema's defaults): which of the fields later versions change it sent.
    const impact = this.rt.impact;
    if (impact) {
      this.impactRecorded = true;
      this.impactPaths = impact.pathsIn(this.rt.contract, plan.version, this.log.method as string, json);
    }
    if (!plan.passThrough || plan.checksResponse) {
      this.ctx = new RequestMigrationContext(this.rt, this.req, this.caller, this.requestId, this.departure, plan.version);
    }
    return valid;
  }

  /**
   * A method or request field the contract deprecates inside this (still current) version: the answer says so
   * with Deprecation (RFC 9745), from the earliest such date. A deprecated version's own headers stand instead.
   */
  private featureDeprecation(plan: MethodPlan, body: Json): void {
    if (this.lifecycle) return;
    const now = this.rt.clock().getTime();
    const used = deprecationsUsed(this.rt.contract, plan.version, this.log.method as string, body, now);
    if (!used) return;
    const since = Math.min(...used.map((d) => d.sinceMs));
    // The gateway's, like a version's: the backend's Deprecation, Sunset and rel="deprecation" links give way.
    this.lifecycle = Object.freeze({ deprecation: `@${Math.floor(since / 1000)}` });
    this.res.setHeader('deprecation', this.lifecycle.deprecation as string);
  }

  // ── translate up ─────────────────────────────────────────────────────────

  private async translateUp(plan: MethodPlan, valid: Json): Promise<Buffer> {
    const t0 = performance.now();
    const body = Buffer.from(JSON.stringify(await translateRequest(plan, valid, this.ctx as RequestMigrationContext)));
    this.log.translateMs = ms(t0);
    return body;
  }

  // ── forward ──────────────────────────────────────────────────────────────

  /** The request to the backend at the head version; the answer comes back through onHead/onBody/onError. */
  private forward(plan: MethodPlan, body: Buffer): void {
    this.method = plan.upstreamMethod;
    this.body = body;
    this.headers = this.upstreamHeaders(plan);
    this.upstreamStarted = performance.now();
    this.rt.forwarder.forward(this);
  }

  /** The request headers the backend gets: the client's forwardable ones plus the gateway's own. */
  private upstreamHeaders(plan: MethodPlan): Record<string, string | string[]> {
    const out = forwardableHeaders(this.req.headers);
    setForwardedHeaders(out, this.req, false);
    // A buffered (checked) answer must come back uncompressed.
    if (plan.checksResponse) out['accept-encoding'] = 'identity';
    setBackendVersion(out, plan.head, Math.min(plan.version, plan.head));
    // The lossless rule's write side: the kinds this client may write although saved under a newer version.
    if (plan.writeGrant !== undefined && this.rt.config.objects.olderClients === 'lossless') out['x-dl-client-writes-through'] = plan.writeGrant;
    out['x-request-id'] = this.requestId;
    out['content-type'] = 'application/json';
    return out;
  }

  // ── answer ───────────────────────────────────────────────────────────────

  /**
   * The backend's answer head is in: stream a success to the client (returns the response, head written),
   * or return how many bytes may be buffered: for a refusal, or for a check and translation down.
   */
  onHead(status: number, headers: IncomingHttpHeaders): ServerResponse | number {
    this.log.upstreamMs = Math.round(performance.now() - this.upstreamStarted);
    this.answerStatus = status;
    this.answerHeaders = headers;
    ownAnswerHeaders(headers, this.lifecycle);
    const limit = this.rt.config.limits.responseBytes;
    if (status < 200 || status >= 300) return limit;
    if (!isJsonMediaType(headers['content-type'])) throw upstreamUnavailable(`content-type ${String(headers['content-type'] ?? 'none').slice(0, 80)}`);
    if (!(this.plan as MethodPlan).checksResponse) {
      this.res.writeHead(status, headers);
      return this.res;
    }
    const encoding = headers['content-encoding'];
    if (encoding && encoding !== 'identity') throw upstreamUnavailable(`unexpected content-encoding ${encoding}`);
    return limit;
  }

  /** A buffered answer: a refusal (any plan), or a success of a plan that checks responses. */
  onBody(chunks: readonly Buffer[], size: number): void {
    const status = this.answerStatus;
    const headers = this.answerHeaders as IncomingHttpHeaders;
    if (status < 200 || status >= 300) this.answerRefusal(backendRefusal(status, headers, joined(chunks, size)));
    else void this.translateDown(status, headers, chunks, size);
  }

  onError(error: unknown): void {
    this.log.upstreamMs ??= Math.round(performance.now() - this.upstreamStarted);
    this.fail(error);
  }

  /** A buffered success: guarded against objects newer than the client's version and migrated down (or as kept). */
  private async translateDown(status: number, headers: IncomingHttpHeaders, chunks: readonly Buffer[], size: number): Promise<void> {
    try {
      const policy: GuardPolicy = {
        olderClients: this.rt.config.objects.olderClients,
        releasedThrough: this.releasedThrough,
        // Open-source DataLens stamps no object: all it holds was saved under version 1, the only one it speaks.
        ...(this.rt.config.upstream.kind === 'datalens-oss' && { unstampedVersion: this.rt.backendVersion }),
      };
      const kept = this.rt.translatedAnswers;
      const key = kept && size >= kept.minAnswerBytes ? answerKey(this.plan as MethodPlan, policy, chunks) : undefined;
      const reused = key === undefined ? undefined : kept?.get(key);
      const body = reused ?? (await this.translated(chunks, size, policy, key));
      if (this.departure.gone || this.res.destroyed) return;
      if (reused) this.log.translatedAnswer = 'reused';
      delete headers['content-encoding'];
      headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      this.res.writeHead(status, headers);
      this.res.end(body);
    } catch (e) {
      this.fail(e);
    }
  }

  /**
   * The answer parsed, guarded and migrated down; kept under `key` when the migrations read nothing else. A long
   * answer comes back encoded once (its length, the bytes written and the kept copy from one encoding); a short one
   * as text, which costs less to measure and write than to encode first.
   */
  private async translated(chunks: readonly Buffer[], size: number, policy: GuardPolicy, key: string | undefined): Promise<string | Buffer> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(joined(chunks, size).toString('utf8'));
    } catch {
      throw upstreamUnavailable('the body is not valid JSON');
    }
    const ctx = this.ctx as RequestMigrationContext;
    ctx.consulted = false;
    const text = JSON.stringify(await translateResponse(this.plan as MethodPlan, parsed, ctx, policy));
    if (key === undefined && text.length < ENCODED_FROM_CHARS) return text;
    const encoded = Buffer.from(text);
    if (key === undefined) return encoded;
    this.log.translatedAnswer = ctx.consulted ? 'not_reusable' : 'translated';
    if (!ctx.consulted) this.rt.translatedAnswers?.set(key, encoded);
    return encoded;
  }

  /** The backend's refusal: passed on as it is, or the gateway's problem with the backend headers it keeps. */
  private answerRefusal(refusal: Refusal): void {
    const { res } = this;
    if ('passedOn' in refusal) {
      const { status, headers, body } = refusal.passedOn;
      this.log.error = 'BACKEND_REFUSED';
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

  // ── the one exit for failures ────────────────────────────────────────────

  /** A refusal of the backend's (from a migration's own call), or the gateway's problem; a cut once the answer started. */
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
    if (error.code === 'PAYLOAD_TOO_LARGE' || (this.req.headers.expect !== undefined && !this.req.complete)) closeAfter(this.req, res);
    sendProblem(res, error, this.requestId);
  }

  /** A 410 still says which version it is about, its dates and guide, and (in a brownout window) when to retry. */
  private sunsetHeaders(error: GatewayError): void {
    const { details } = error;
    if (isIssueList(details)) return;
    const { version, brownoutEnds } = details;
    if (typeof version !== 'number') return;
    // Sunset and brownout refusals still count against their version (and, in a brownout, its client).
    this.log.version = version;
    this.log.deprecated = details.brownout === true;
    const now = this.rt.clock();
    this.lifecycle = setClientVersion(this.res, version, findEntry(this.rt.calendar, version), now, this.rt.calendar, this.rt.config.routes.prefix);
    if (typeof brownoutEnds === 'string') {
      this.res.setHeader('retry-after', String(Math.max(1, Math.ceil((Date.parse(brownoutEnds) - now.getTime()) / 1000))));
    }
  }

  // ── the end ──────────────────────────────────────────────────────────────

  /** The exchange is over: release it and record what the client got. */
  private ended(): void {
    const { rt, res, log } = this;
    this.done();
    this.unanswered?.delete(res);
    const finished = res.writableFinished;
    const bySocket = finished ? undefined : socketAnswer(res);
    // Whatever ended it, work still under way for this request stops; the client left first only when
    // nothing else (a cut, the server's own answer on the connection) ended the exchange.
    if (!finished) this.departure.leave();
    const left = !finished && bySocket === undefined && !log.cut;
    const logged = rt.requestLog.isLevelEnabled('info');
    // Who called is only needed for the log line, deprecated-version metrics and the impact report; it may cost a hash.
    if (logged || log.deprecated || this.impactRecorded) log.client = this.caller.id;
    if (this.impactRecorded) rt.impact?.record(log.client, log.version as number, log.method as string, rt.clock().getTime(), this.impactPaths);
    log.status = left ? 499 : (bySocket ?? res.statusCode);
    log.durationMs = ms(this.started);
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
      preview: log.preview,
      translatedAnswer: log.translatedAnswer,
    });
  }
}
