// Child process: the reference backend (the shipped contract's head version, demo seed) on 127.0.0.1:0, counting the TCP
// connections it accepts so the runner can check that the gateway reuses its upstream connections.
//
// Usage: node bench/backend-process.ts ['{"apiVersion": 1}'] (BackendChildOptions; absent: the head version).
//
// Commands: stats → {accepted, open, requests (HTTP requests answered or not), rss}; dropIdle → closes the idle keep-alive connections (every proxy's
// pool to this backend starts empty afterwards).

import { DEMO_SEED, createReferenceBackend } from '../src/reference-backend/index.js';
import { serveControl } from './control.js';

// Import only the type from here: importing a value would run this module (and start a backend).
export interface BackendChildOptions {
  /** Speak this older version of the contract (createReferenceBackend's `apiVersion`; absent: the head). */
  readonly apiVersion?: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as BackendChildOptions;

const backend = createReferenceBackend({
  seed: DEMO_SEED,
  ...(options.apiVersion !== undefined && { apiVersion: options.apiVersion }),
  // The memory section sends 1 MiB bodies (plus the JSON around them) through the gateway.
  maxBodyBytes: 4 * 1024 * 1024,
});

let accepted = 0;
let open = 0;
let requests = 0;
backend.server.on('request', () => void requests++);
backend.server.on('connection', (socket) => {
  accepted++;
  open++;
  socket.once('close', () => open--);
});

const url = await backend.listen(0, '127.0.0.1');
serveControl(
  { url, pid: process.pid },
  {
    stats: () => ({ accepted, open, requests, rss: process.memoryUsage().rss }),
    dropIdle: () => {
      backend.server.closeIdleConnections();
      return { open };
    },
  },
  async () => {
    await backend.close();
    return { accepted };
  },
);
