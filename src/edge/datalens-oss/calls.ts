// One public call served by open-source DataLens: the internal route(s) of its row in routes.ts, called in turn, and
// their answer made into the public controller's. Shared by the forwarder and the backend client.

import { GatewayError } from '../../core/errors.js';
import { upstreamUnavailable } from '../../core/upstream-errors.js';
import { chartReadPath, publicChartRead, type ChartReadArgs } from './chart-reads.js';
import { internalHeaders } from './credentials.js';
import { serveEntryOp } from './entry-calls.js';
import { asIs, asJson, InternalCall, missingRoute, parsed, type InternalAnswer, type OssAnswer, type OssTarget } from './internal-call.js';
import { notThisKind, publicChartReadError } from './public-errors.js';
import { CHART_TYPES, OSS_ROUTES, type ChartFamily } from './routes.js';

export type { OssAnswer, OssTarget } from './internal-call.js';

/** Serves `method` (a name with a row in routes.ts) with the `body` the gateway validated, in the row's version's shape. */
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
    case 'entry':
      return serveEntryOp(call, route.op, JSON.parse(body.toString('utf8')) as Record<string, unknown>, requestId, row.since ?? 1);
  }
}

/** The public update: United Storage's entry must be a chart of the family (404 "No entry found" otherwise), then the charts engine saves it. */
async function updateChart(call: InternalCall, family: ChartFamily, body: Buffer, requestId: string): Promise<OssAnswer> {
  const entryId = String((JSON.parse(body.toString('utf8')) as { entryId?: unknown }).entryId);
  const found = await call.entry({ entryId }, requestId);
  if ('refused' in found) return found.refused;
  const { scope, type } = found.entry;
  if (scope !== 'widget' || typeof type !== 'string' || !CHART_TYPES[family].has(type)) return asJson(notThisKind('No entry found', requestId));
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

