// The admin listener (loopback by default): Prometheus metrics and an explicit reload, off the public port.

import { createServer, type Server } from 'node:http';
import express from 'express';
import { listen } from '../edge/listen.js';
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

export function createAdminServer(options: { metrics: Metrics; reload: () => ReloadResult }): AdminServer {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', async (_req, res) => {
    res.type(options.metrics.registry.contentType).send(await options.metrics.registry.metrics());
  });
  app.post('/reload', (_req, res) => {
    const result = options.reload();
    res.status(result.ok ? 200 : 422).json(result);
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
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
