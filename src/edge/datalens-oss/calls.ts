// One public version-1 call served by open-source DataLens: the internal route(s) of its row in routes.ts, called
// in turn, and their answer made into the public controller's. Shared by the forwarder and the backend client.

import type { Dispatcher } from 'undici';
import { GatewayError } from '../../core/errors.js';
import { upstreamUnavailable } from '../../core/upstream-errors.js';
import { isJsonMediaType } from '../../core/media-type.js';
import { chartReadPath, publicChartRead, type ChartReadArgs } from './chart-reads.js';
import { internalHeaders } from './credentials.js';
import { notThisKind, publicActionError, publicChartReadError, type PublicAnswer } from './public-errors.js';
import { CHART_TYPES, OSS_ROUTES, type ChartFamily } from './routes.js';

export interface OssTarget {
  /** The UI server's origin and base path (upstream.url). */
  readonly origin: string;
  readonly basePath: string;
  readonly dispatcher: Dispatcher;
  /** upstream.datalensOss.authCookie. */
  readonly authCookie: string;
  /** The most bytes of one internal answer read (limits.responseBytes). */
  readonly maxAnswerBytes: number;
}

/** The public answer: status, its headers (content type) and bytes. */
export interface OssAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

interface InternalAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly raw: Buffer;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Error codes of the gateway library for an action it does not have: the UI server is not the one this table is for. */
const NO_SUCH_ACTION = new Set(['UNKNOWN_SERVICE_ACTION', 'UNKNOWN_SERVICE', 'UNKNOWN_ACTION']);

const asJson = (answer: PublicAnswer): OssAnswer => ({ status: answer.status, headers: { 'content-type': JSON_TYPE }, body: Buffer.from(JSON.stringify(answer.body)) });
const asIs = (answer: InternalAnswer): OssAnswer => ({ status: answer.status, headers: answer.contentType ? { 'content-type': answer.contentType } : {}, body: answer.raw });

function parsed(answer: InternalAnswer): unknown {
  if (!isJsonMediaType(answer.contentType) || answer.raw.length === 0) return undefined;
  try {
    return JSON.parse(answer.raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

const missingRoute = (what: string, status: number) =>
  upstreamUnavailable(`open-source DataLens answered ${status} to ${what}: upstream.url must be its UI server in full mode (APP_MODE=full), which serves that route`);

/** Serves `method` (a version-1 name with a row in routes.ts) with the version-1 `body` the gateway validated. */
export async function serveOnOss(target: OssTarget, method: string, body: Buffer, headers: Readonly<Record<string, string | string[]>>, signal: AbortSignal): Promise<OssAnswer> {
  const row = OSS_ROUTES[method];
  if (!row) throw new GatewayError('NO_BACKEND_ROUTE', `${method} is not served here: open-source DataLens has no route that serves it`, { method });
  const requestId = typeof headers['x-request-id'] === 'string' ? headers['x-request-id'] : '';
  const call = new InternalCall(target, internalHeaders(headers, target.authCookie), signal);
  const route = row.route;
  switch (route.via) {
    case 'action':
      return call.action(route.service, route.action, body, requestId);
    case 'chart-create':
      return chartsEngine(await call.send('POST', '/api/charts/v1/charts', body), 'POST /api/charts/v1/charts');
    case 'chart-update':
      return updateChart(call, route.family, body, requestId);
    case 'chart-read':
      return readChart(call, route.family, body, requestId);
  }
}

/** The public update: United Storage's entry must be a chart of the family (404 "No entry found" otherwise), then the charts engine saves it. */
async function updateChart(call: InternalCall, family: ChartFamily, body: Buffer, requestId: string): Promise<OssAnswer> {
  const entryId = String((JSON.parse(body.toString('utf8')) as { entryId?: unknown }).entryId);
  const lookup = await call.send('POST', '/gateway/root/us/getEntry', Buffer.from(JSON.stringify({ entryId })));
  const entry = parsed(lookup) as { scope?: unknown; type?: unknown } | undefined;
  if (lookup.status < 200 || lookup.status >= 300) return asJson(call.actionError('us.getEntry', lookup, requestId));
  if (entry === undefined) throw missingRoute('POST /gateway/root/us/getEntry', lookup.status);
  if (entry.scope !== 'widget' || typeof entry.type !== 'string' || !CHART_TYPES[family].has(entry.type)) return asJson(notThisKind('No entry found', requestId));
  return chartsEngine(await call.send('POST', `/api/charts/v1/charts/${encodeURIComponent(entryId)}`, body), 'POST /api/charts/v1/charts/:id');
}

/** A chart write's answer: the charts engine's, as the public controller passes it; a 404 that is not JSON means no such route. */
function chartsEngine(answer: InternalAnswer, what: string): OssAnswer {
  if (answer.status === 404 && parsed(answer) === undefined) throw missingRoute(what, 404);
  return asIs(answer);
}

async function readChart(call: InternalCall, family: ChartFamily, body: Buffer, requestId: string): Promise<OssAnswer> {
  const args = JSON.parse(body.toString('utf8')) as ChartReadArgs;
  const answer = await call.send('GET', chartReadPath(args));
  const entry = parsed(answer);
  if (answer.status >= 200 && answer.status < 300) {
    if (entry === undefined) throw upstreamUnavailable(`the charts engine answered ${answer.status} with a body that is not JSON`);
    return asJson(publicChartRead(family, args, entry, requestId));
  }
  if (answer.status === 404 && entry === undefined) throw missingRoute('GET /api/charts/v1/charts/:id', 404);
  return asJson(publicChartReadError(answer.status, entry, requestId));
}

/** The internal calls one public call makes: same headers, same deadline. */
class InternalCall {
  constructor(
    private readonly target: OssTarget,
    private readonly headers: Record<string, string | string[]>,
    private readonly signal: AbortSignal,
  ) {}

  /** `POST /gateway/root/<service>/<action>`: a success passes as it came (the public controller sends the same body). */
  async action(service: string, action: string, body: Buffer, requestId: string): Promise<OssAnswer> {
    const answer = await this.send('POST', `/gateway/root/${service}/${action}`, body);
    if (answer.status >= 200 && answer.status < 300) {
      if (!isJsonMediaType(answer.contentType)) throw missingRoute(`POST /gateway/root/${service}/${action}`, answer.status);
      return asIs(answer);
    }
    return asJson(this.actionError(`${service}.${action}`, answer, requestId));
  }

  actionError(action: string, answer: InternalAnswer, requestId: string): PublicAnswer {
    const body = parsed(answer) as { code?: unknown } | undefined;
    const mapped = body && !NO_SUCH_ACTION.has(String(body.code)) ? publicActionError(answer.status, body, requestId) : undefined;
    if (!mapped) throw missingRoute(`the action ${action}`, answer.status);
    return mapped;
  }

  async send(method: 'GET' | 'POST', path: string, body?: Buffer): Promise<InternalAnswer> {
    const { origin, basePath, dispatcher, maxAnswerBytes } = this.target;
    const answer = await dispatcher.request({
      origin,
      method,
      path: basePath + path,
      headers: body === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json' },
      body,
      signal: this.signal,
      // A POST that failed on a reused connection may have reached the UI server: never replay it.
      idempotent: method === 'GET',
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxAnswerBytes) {
        answer.body.destroy();
        throw upstreamUnavailable(`the answer exceeds the ${maxAnswerBytes}-byte limit for checked responses`);
      }
      chunks.push(chunk);
    }
    const type = answer.headers['content-type'];
    return { status: answer.statusCode, contentType: typeof type === 'string' ? type : undefined, raw: Buffer.concat(chunks, size) };
  }
}
