// The admin listener (loopback by default): Prometheus metrics, an explicit reload and the impact report, off the
// public port; on loopback it answers only its own Host names, and never a state change a browser sent cross-site.

import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { listen } from '../net/listen.js';
import type { ImpactFilters, ImpactReport } from '../core/impact/report.js';
import { renderImpactPage } from './impact-page.js';
import type { Metrics } from './metrics.js';

export interface ReloadResult {
  readonly ok: boolean;
  readonly problems?: readonly string[];
}

export interface AdminServer {
  readonly server: Server;
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}

export interface AdminOptions {
  readonly metrics: Metrics;
  readonly reload: () => ReloadResult;
  /** The token POST /reload requires as `Authorization: Bearer <token>`, when one is configured (read per request). */
  readonly token?: () => string | undefined;
  /** The per-client impact report now, narrowed by the filters; rejects when its record cannot be read. */
  readonly impact?: (filters: ImpactFilters) => Promise<ImpactReport>;
  /** The latest notice deliveries and failures, newest first; absent: no webhook is configured. */
  readonly notices?: () => Promise<readonly unknown[]>;
  /** Host names a loopback listener answers besides localhost, 127.0.0.1, [::1] and its own address (any port). */
  readonly hostNames?: readonly string[];
}

const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\]|localhost)$/i;

/** The Host names (port aside) a listener bound to `host` answers; undefined (any) beyond loopback, where none is known. */
function ownHosts(host: string, extra: readonly string[]): ReadonlySet<string> | undefined {
  if (!LOOPBACK.test(host)) return undefined;
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return new Set(['localhost', '127.0.0.1', '[::1]', bracketed, ...extra].map((n) => n.toLowerCase()));
}

/** The name of a Host value without its port; the port is not checked, so an SSH tunnel to another local port works. */
const hostName = (host: string) => host.toLowerCase().replace(/:\d*$/, '');

/** The origin (host:port) a browser's Origin names, or undefined when it is `null` or not an http(s) URL. */
function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

// The content types a browser sends cross-site without asking first (the CORS-safelisted ones of the Fetch standard).
const SIMPLE_TYPES = /^\s*(?:application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\s*(?:;|$)/i;

/** Why a state-changing request looks sent by a browser from another site (undefined: it does not). */
function crossSite(req: Request): string | undefined {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (origin !== undefined && originHost(origin) !== (req.headers.host ?? '').toLowerCase()) return `Origin ${JSON.stringify(origin.slice(0, 100))} is not this listener`;
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site is ${JSON.stringify(site.slice(0, 20))}`;
  // An older browser's form post carries neither header: refuse the content types a form can send.
  if (origin === undefined && site === undefined && SIMPLE_TYPES.test(req.headers['content-type'] ?? '')) {
    return `a body of type ${req.headers['content-type']?.split(';', 1)[0]?.trim()}, as a web form sends it`;
  }
  return undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Refuses a Host that is not the listener's (DNS rebinding: 421) and a cross-site state change (403). */
function browserGuard(own: () => ReadonlySet<string> | undefined) {
  return function browserGuard(req: Request, res: Response, next: NextFunction): void {
    const names = own();
    if (names && !names.has(hostName(req.headers.host ?? ''))) {
      res.setHeader('connection', 'close');
      res.status(421).json({ error: `this admin listener answers only the Host names ${[...names].join(', ')}` });
      return;
    }
    const why = SAFE_METHODS.has(req.method) ? undefined : crossSite(req);
    if (why) {
      res.status(403).json({ ok: false, problems: [`${req.method} ${req.path} refused: ${why} (a web page may not reload the gateway)`] });
      return;
    }
    next();
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares the Bearer credential with the token in constant time (over digests, so lengths leak nothing). */
function authorized(req: Request, token: string): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return !!match && timingSafeEqual(digest(match[1] as string), digest(token));
}

/** Each route's one allowed method: any other method answers 405 with Allow. */
const ROUTES: Record<string, string> = { '/metrics': 'GET', '/reload': 'POST', '/healthz': 'GET', '/impact': 'GET', '/impact.html': 'GET', '/notices': 'GET' };

/** The report's filters from the query (client, version, method); a problem names the bad one. */
function filtersOf(req: Request): ImpactFilters | string {
  const one = (name: string) => {
    const v = req.query[name];
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const version = one('version');
  if (version !== undefined && !/^[1-9][0-9]{0,5}$/.test(version)) return 'version must be a version number, e.g. ?version=1';
  const client = one('client');
  const method = one('method');
  return { ...(client !== undefined && { client }), ...(version !== undefined && { version: Number(version) }), ...(method !== undefined && { method }) };
}

export function createAdminServer(options: AdminOptions): AdminServer {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Known once the listener is bound (its port may be 0 until then).
  let own: ReadonlySet<string> | undefined;
  app.use(browserGuard(() => own));
  app.get('/metrics', async (_req, res) => {
    res.type(options.metrics.registry.contentType).send(await options.metrics.registry.metrics());
  });
  app.post('/reload', (req, res) => reload(options, req, res));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/notices', (_req, res) => notices(options, res));
  app.get('/impact', (req, res) => impact(options, req, res, false));
  app.get('/impact.html', (req, res) => impact(options, req, res, true));
  app.use(noSuchRoute);
  const server = createServer(app);
  return {
    server,
    async listen(port, host) {
      const url = await listen(server, port, host);
      own = ownHosts(host, options.hostNames ?? []);
      return url;
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** POST /reload: with the admin token when one is set; 422 with the problems of a config that does not load. */
function reload(options: AdminOptions, req: Request, res: Response): void {
  const token = options.token?.();
  if (token !== undefined && !authorized(req, token)) {
    res.setHeader('www-authenticate', 'Bearer realm="dl-version-gateway admin"');
    res.status(401).json({ ok: false, problems: ['POST /reload needs Authorization: Bearer <the admin token>'] });
    return;
  }
  const result = options.reload();
  res.status(result.ok ? 200 : 422).json(result);
}

/** GET /impact (JSON) and /impact.html (the page), filtered by the query. */
async function impact(options: AdminOptions, req: Request, res: Response, html: boolean): Promise<void> {
  if (!options.impact) {
    res.status(404).json({ error: 'the impact report is not recorded by this process' });
    return;
  }
  const filters = filtersOf(req);
  if (typeof filters === 'string') {
    res.status(400).json({ error: filters });
    return;
  }
  let report: ImpactReport;
  try {
    report = await options.impact(filters);
  } catch (e) {
    res.status(503).json({ error: `the impact report cannot be read now: ${(e as Error).message}` });
    return;
  }
  res.setHeader('cache-control', 'no-store');
  if (!html) {
    res.json(report);
    return;
  }
  // The page loads nothing: no script, no outside resource; only its own inline style.
  res.setHeader('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'");
  res.type('text/html; charset=utf-8').send(renderImpactPage(report));
}

/** GET /notices: the latest deliveries and failures of sunset notices. */
async function notices(options: AdminOptions, res: Response): Promise<void> {
  if (!options.notices) {
    res.json({ deliveries: [], note: 'no webhook is configured (notices.webhooks)' });
    return;
  }
  try {
    res.setHeader('cache-control', 'no-store');
    res.json({ deliveries: await options.notices() });
  } catch (e) {
    res.status(503).json({ error: `the notice log cannot be read now: ${(e as Error).message}` });
  }
}

/** A known path with the wrong method is 405 with Allow; anything else 404 listing the endpoints. */
function noSuchRoute(req: Request, res: Response): void {
  const allowed = ROUTES[req.path];
  if (allowed) {
    // HEAD is answered for GET routes by Express itself; anything else here is a wrong method.
    res.setHeader('allow', allowed === 'GET' ? 'GET, HEAD' : allowed);
    res.status(405).json({ error: `use ${allowed} for ${req.path}` });
    return;
  }
  res.status(404).json({ error: 'no such admin endpoint: /metrics (GET), /reload (POST), /healthz (GET), /impact (GET), /impact.html (GET), /notices (GET)' });
}
