// Starts a real reference backend and a real gateway on 127.0.0.1 with a settable clock, for tests.

import { pino } from 'pino';
import { createMetrics, type Metrics } from '../../src/admin/metrics.js';
import { parseConfig } from '../../src/config/load.js';
import type { GatewayConfigInput } from '../../src/config/schema.js';
import { shippedContract } from '../../src/contract/index.js';
import type { Contract } from '../../src/core/contract-model/types.js';
import { createGateway, type Gateway, type ServerLimits } from '../../src/gateway/index.js';
import { DEMO_SEED, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { VERSIONS, contractCalendar, sunsetOf } from './calendar.js';

/**
 * The calendar most tests use: v1 released 2025-01-15, the head released 2026-10-01 (any version between a day
 * apart just before it), 180-day window.
 */
export const CALENDAR = contractCalendar({ first: '2025-01-15', head: '2026-10-01', supportWindowDays: 180 });
/** Sunset of v1 under CALENDAR: v2's release + 180 days (2027-03-30 when v2 is the head). */
export const V1_SUNSET = sunsetOf(CALENDAR, 1);
export const DURING_V1_ONLY = new Date('2026-06-01T12:00:00Z');
export const DURING_DEPRECATION = new Date('2026-11-22T12:00:00Z');
/** Half a day after v1's sunset: every later version is still served (the next retires a day later at the earliest). */
export const AFTER_V1_SUNSET = new Date(V1_SUNSET.getTime() + 43_200_000);
/** The versions CALENDAR serves after v1's sunset (at AFTER_V1_SUNSET). */
export const AFTER_V1_SUPPORTED: readonly number[] = VERSIONS.slice(1);

export interface StackOptions {
  /** The instant the gateway sees; change it later with `stack.setNow`. */
  now?: Date;
  /** Config document merged over a default (lifecycle = CALENDAR). */
  config?: Partial<GatewayConfigInput> & Record<string, unknown>;
  /** Forward to this URL instead of a fresh reference backend (e.g. a faulty upstream). */
  upstreamUrl?: string;
  /** Defaults to the shipped contract; the reference backend speaks its head version. */
  contract?: Contract;
  /** The reference backend speaks this older version, and the gateway's upstream.apiVersion says so. */
  backendApiVersion?: number;
  limits?: ServerLimits;
  /** Defaults to a fresh registry without process metrics. */
  metrics?: Metrics;
  /** Defaults to a silent logger. */
  logger?: import('pino').Logger;
  /** Records who calls what (the impact report); none by default. */
  impact?: import('../../src/ports/impact.js').ImpactRecorder;
}

export interface Stack {
  readonly url: string;
  readonly backendUrl: string;
  /** Undefined when `upstreamUrl` was given. */
  readonly backend: ReferenceBackend | undefined;
  readonly gateway: Gateway;
  readonly metrics: Metrics;
  setNow(now: Date): void;
  close(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  let now = options.now ?? DURING_DEPRECATION;
  let backend: ReferenceBackend | undefined;
  let backendUrl = options.upstreamUrl;
  if (!backendUrl) {
    backend = createReferenceBackend({
      contract: options.contract ?? shippedContract,
      seed: DEMO_SEED,
      ...(options.backendApiVersion !== undefined && { apiVersion: options.backendApiVersion }),
    });
    backendUrl = await backend.listen(0, '127.0.0.1');
  }
  const loaded = parseConfig({
    listen: { host: '127.0.0.1', port: 0 },
    lifecycle: CALENDAR,
    // Most suites test the gateway's own routes: pass-through (on by default in front of a real upstream) is
    // switched on by the suites about it.
    passthrough: { enabled: false },
    ...options.config,
    upstream: {
      url: backendUrl,
      ...(options.backendApiVersion !== undefined && { apiVersion: options.backendApiVersion }),
      ...(options.config?.upstream as object | undefined),
    },
  });
  const metrics = options.metrics ?? createMetrics({ maxClients: 100, defaultMetrics: false });
  const gateway = createGateway({
    loaded,
    contract: options.contract ?? shippedContract,
    upstreamUrl: backendUrl,
    clock: () => now,
    logger: options.logger ?? pino({ level: 'silent' }),
    metrics,
    limits: options.limits,
    ...(options.impact && { impact: options.impact }),
  });
  const url = await gateway.listen(0, '127.0.0.1');
  return {
    url,
    backendUrl,
    backend,
    gateway,
    metrics,
    setNow(next) {
      now = next;
    },
    async close() {
      gateway.server.closeAllConnections();
      await gateway.close();
      await backend?.close();
    },
  };
}

/** POST /rpc/<method> with a JSON body and the given version header (omit with `version: null`). */
export async function rpc(
  url: string,
  method: string,
  body: unknown,
  version: string | null = '2',
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${url}/rpc/${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(version !== null && { 'x-dl-api-version': version }),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
