// The public listener's own routes (Express): health, readiness, the version calendar, derived documents, and
// the interactive API reference pages with their files.

import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { GatewayError, isGatewayError } from '../../core/errors.js';
import { renderChangelog } from '../../core/derive/changelog.js';
import { type OpenApiDocument, openApiFor } from '../../core/derive/openapi.js';
import { calendarRow, findEntry, latestAt, statusAt } from '../../core/lifecycle/calendar.js';
import { versionNumberIn } from '../../core/version/number.js';
import { requestIdOf } from '../http/headers.js';
import { checkReadiness, type ReadinessOptions } from './readiness.js';
import { endpointNotFound, sendProblem } from '../http/problem.js';
import { referenceAsset } from './reference-assets.js';
import { PAGE_CSP, renderReferencePage } from './reference-page.js';
import type { Runtime } from '../../ports/runtime.js';

/** The readiness check's settings for a runtime generation. */
export const readinessOptions = (rt: Runtime): ReadinessOptions => ({
  dispatcher: rt.forwarder.pool,
  upstreamUrl: rt.upstreamUrl,
  ...rt.config.readiness,
  // Open-source DataLens announces no API version: its health route answering is the check (its version is configured).
  checkVersion: rt.config.readiness.checkVersion && rt.config.upstream.kind === 'rpc',
  // Never longer than any other call to the backend may take.
  timeoutMs: Math.min(rt.config.readiness.timeoutMs, rt.config.upstream.timeoutMs),
  headVersion: rt.backendVersion,
  configured: rt.config.upstream.apiVersion !== undefined,
});

export function createDiscoveryApp(current: () => Runtime): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req: Request, res: Response, next: NextFunction) => {
    res.setHeader('x-request-id', requestIdOf(req.headers));
    next();
  });
  // Express matches in the order routes are installed: /:version (the reference page) must come after the rest.
  installHealthRoutes(app, current);
  installDocumentRoutes(app, current);
  installReferenceRoutes(app, current);
  installFallbacks(app);
  return app;
}

/** /healthz (the process is up) and /readyz (the backend answers, with the version it announces). */
function installHealthRoutes(app: Express, current: () => Runtime): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/readyz', async (_req, res) => {
    const rt = current();
    const readiness = await checkReadiness(readinessOptions(rt));
    if (readiness.ready) res.json({ status: 'ready', ...(readiness.backendVersion !== undefined && { backendVersion: readiness.backendVersion }) });
    else res.status(503).json({ status: 'not ready', reason: readiness.reason });
  });
}

/** A version's OpenAPI document, built once per runtime generation, version and deprecation (it depends on nothing else). */
function openApi(documents: WeakMap<Runtime, Map<string, OpenApiDocument>>, rt: Runtime, version: number): OpenApiDocument {
  const entry = findEntry(rt.calendar, version);
  const deprecated = !!entry && statusAt(entry, rt.clock()) === 'deprecated';
  const key = `${version}:${deprecated}`;
  let perVersion = documents.get(rt);
  if (!perVersion) documents.set(rt, (perVersion = new Map()));
  let doc = perVersion.get(key);
  if (!doc) perVersion.set(key, (doc = openApiFor(rt.contract, version, { deprecated, sunset: entry?.sunsetAt, notServed: notServedAt(rt, version) })));
  return doc;
}

/** The methods of `version` this generation's backend does not serve: above its version, or without a route on its kind. */
function notServedAt(rt: Runtime, version: number): ReadonlySet<string> | undefined {
  if (version <= rt.backendVersion && rt.unrouted.size === 0) return undefined;
  const out = new Set<string>();
  for (const name of Object.keys(rt.contract.byVersion.get(version)?.methods ?? {})) {
    const plan = rt.plans.get(`${version}:${name}`);
    if (plan?.notServed || (plan && rt.unrouted.has(plan.upstreamMethod))) out.add(name);
  }
  return out;
}

/** The version calendar (/versions), the OpenAPI documents (/json, /<v>/json) and the changelog. */
function installDocumentRoutes(app: Express, current: () => Runtime): void {
  const documents = new WeakMap<Runtime, Map<string, OpenApiDocument>>();

  app.get('/versions', (_req, res) => {
    const rt = current();
    const now = rt.clock();
    res.json({
      latest: latestAt(rt.calendar, now)?.version ?? null,
      backend: { kind: rt.config.upstream.kind, apiVersion: rt.backendVersion },
      versions: rt.calendar.entries.map((e) => ({
        ...calendarRow(e, now),
        brownouts: e.brownouts.map((w) => ({ start: w.start.toISOString(), end: w.end.toISOString() })),
        brownoutShare: e.brownoutShare,
      })),
    });
  });

  // The latest released version's document, where @datalens-tech/mcp looks for its tools (also as /latest/json/).
  app.get(['/json', '/json/', '/latest/json', '/latest/json/'], (_req, res) => {
    const rt = current();
    const latest = latestAt(rt.calendar, rt.clock())?.version ?? rt.contract.versions[0];
    res.json(openApi(documents, rt, latest as number));
  });

  app.get(['/:version/json', '/:version/json/'], (req, res, next) => {
    const rt = current();
    const raw = String(req.params.version);
    const version = versionNumberIn(raw);
    if (version === undefined || !rt.contract.byVersion.has(version)) {
      next(
        new GatewayError('ENDPOINT_NOT_FOUND', `no OpenAPI document for API version ${raw.slice(0, 20)}`, {
          availableIn: rt.contract.versions,
        }),
      );
      return;
    }
    res.json(openApi(documents, rt, version));
  });

  app.get('/changelog', (_req, res) => {
    const rt = current();
    res.type('text/markdown; charset=utf-8').send(renderChangelog(rt.contract, rt.calendar));
  });
}

/** The interactive API reference: its static files (/_reference/<file>) and its pages (/<v>/, /latest/). */
function installReferenceRoutes(app: Express, current: () => Runtime): void {
  // The reference pages' static files (Swagger UI's, from the swagger-ui-dist package).
  app.get('/_reference/:file', (req, res, next) => {
    const asset = referenceAsset(String(req.params.file));
    if (!asset) {
      next();
      return;
    }
    res.setHeader('cache-control', 'public, max-age=86400');
    res.setHeader('vary', 'accept-encoding');
    if (asset.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      res.setHeader('content-encoding', 'gzip');
      res.type(asset.type).send(asset.gzip);
      return;
    }
    res.type(asset.type).send(asset.body);
  });

  // The interactive reference of one version (/<v>/), or of the latest released one (/latest/).
  app.get('/:version', (req, res, next) => {
    const rt = current();
    const raw = String(req.params.version);
    const latest = raw === 'latest';
    const now = rt.clock();
    const version = latest ? latestAt(rt.calendar, now)?.version : versionNumberIn(raw);
    const entry = version === undefined ? undefined : findEntry(rt.calendar, version);
    if (!entry || !rt.contract.byVersion.has(entry.version)) {
      next();
      return;
    }
    // Relative links need the trailing slash: /1 → /1/ (under the prefix).
    if (!req.path.endsWith('/')) {
      res.redirect(301, `${rt.config.routes.prefix ?? ''}/${raw}/`);
      return;
    }
    const html = renderReferencePage({
      version: entry.version,
      latest,
      versions: rt.contract.versions,
      backend: { kind: rt.config.upstream.kind, apiVersion: rt.backendVersion },
      lifecycle: {
        status: statusAt(entry, now),
        releasedAt: entry.releasedAt,
        deprecatedAt: entry.deprecatedAt,
        sunsetAt: entry.sunsetAt,
        migrationGuide: entry.migrationGuide,
      },
    });
    res.setHeader('content-security-policy', PAGE_CSP);
    res.setHeader('cache-control', 'no-cache');
    res.type('text/html; charset=utf-8').send(html);
  });
}

/** Anything else is a 404 problem; errors become problems (4xx from Express: no such endpoint; else 500). */
function installFallbacks(app: Express): void {
  app.use((req: Request, res: Response) => {
    sendProblem(res, endpointNotFound(req.path), String(res.getHeader('x-request-id')));
  });

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    // Express refuses paths it cannot percent-decode with a 4xx error of its own: no such endpoint.
    const status = (err as { status?: unknown } | null)?.status;
    const clientError = typeof status === 'number' && status >= 400 && status < 500;
    const error = isGatewayError(err)
      ? err
      : clientError
        ? endpointNotFound(req.originalUrl)
        : new GatewayError('INTERNAL_ERROR', 'the gateway failed to handle this request');
    sendProblem(res, error, String(res.getHeader('x-request-id')));
  });
}
