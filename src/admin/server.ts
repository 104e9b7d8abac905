// The admin listener (loopback by default): Prometheus metrics and an explicit reload, off the public port.

import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import express, { type Request, type Response } from 'express';
import { listen } from '../net/listen.js';
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
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares the Bearer credential with the token in constant time (over digests, so lengths leak nothing). */
function authorized(req: Request, token: string): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return !!match && timingSafeEqual(digest(match[1] as string), digest(token));
}

/** Each route's one allowed method: any other method answers 405 with Allow. */
const ROUTES: Record<string, string> = { '/metrics': 'GET', '/reload': 'POST', '/healthz': 'GET' };

export function createAdminServer(options: AdminOptions): AdminServer {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/metrics', async (_req, res) => {
    res.type(options.metrics.registry.contentType).send(await options.metrics.registry.metrics());
  });
  app.post('/reload', (req, res) => {
    const token = options.token?.();
    if (token !== undefined && !authorized(req, token)) {
      res.setHeader('www-authenticate', 'Bearer realm="dl-version-gateway admin"');
      res.status(401).json({ ok: false, problems: ['POST /reload needs Authorization: Bearer <the admin token>'] });
      return;
    }
    const result = options.reload();
    res.status(result.ok ? 200 : 422).json(result);
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use((req: Request, res: Response) => {
    const allowed = ROUTES[req.path];
    if (allowed) {
      // HEAD is answered for GET routes by Express itself; anything else here is a wrong method.
      res.setHeader('allow', allowed === 'GET' ? 'GET, HEAD' : allowed);
      res.status(405).json({ error: `use ${allowed} for ${req.path}` });
      return;
    }
    res.status(404).json({ error: 'no such admin endpoint: /metrics (GET), /reload (POST), /healthz (GET)' });
  });
  const server = createServer(app);
  return {
    server,
    listen: (port, host) => listen(server, port, host),
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
