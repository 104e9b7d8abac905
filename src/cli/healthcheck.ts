#!/usr/bin/env node
// The container's HEALTHCHECK: GET /healthz on the port serve listens on (PORT, else the config's listen.port), exit 0 or 1.

import { DEFAULT_CONFIG, loadConfigFile } from '../config/load.js';

/** The address serve listens on, as serve computes it (environment over file); a wildcard host is asked on loopback. */
function target(env: NodeJS.ProcessEnv): string {
  let host = env.HOST || '127.0.0.1';
  let port = Number(env.PORT || 8080);
  try {
    const { listen } = loadConfigFile(env.GATEWAY_CONFIG || DEFAULT_CONFIG, env).config;
    ({ host, port } = listen);
  } catch {
    /* a file the gateway refused: it still serves what it started with, on PORT or the default */
  }
  if (host === '0.0.0.0' || host === '::' || host === '') host = '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/healthz`;
}

const url = target(process.env);
fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
