// One connection to Redis for a gateway generation: every command bounded by a short timeout, any trouble
// (down, slow, refusing, answering garbage) turned into "no answer", counted, and logged at most once a minute.

// The client library is loaded only when a Redis is configured (it costs the process about 7 MB of heap).
import type * as RedisModule from '@redis/client';
import type { Logger } from 'pino';
import type { CacheMetrics } from '../../ports/metrics.js';

export interface RedisLinkOptions {
  readonly url: string;
  /** Longest wait for one command; then the caller goes on without Redis. */
  readonly timeoutMs: number;
  readonly logger: Logger;
  readonly metrics: CacheMetrics;
  /** A connection that has answered nothing for this long while commands timed out is replaced (default 10 s). */
  readonly stuckMs?: number;
  /** The connection's name in Redis's CLIENT LIST (default "dl-version-gateway"). */
  readonly name?: string;
}

/** Why a command gave no usable answer: the label of dlgw_cache_errors_total. */
export type CacheErrorReason = 'unavailable' | 'timeout' | 'refused' | 'garbage' | 'skipped';

export interface RedisLink {
  /** The reply, or undefined when Redis could not answer in time (already counted and logged). */
  command(op: 'get' | 'set', args: readonly string[]): Promise<unknown>;
  /** Counts and logs a reply the caller found unusable. */
  garbage(op: 'get' | 'set', what: string): void;
  close(): Promise<void>;
}

const LOG_EVERY_MS = 60_000;
/** After a timeout, commands skip Redis this long: a hung Redis costs one timeout a second, not one per call. */
const COOLDOWN_MS = 1_000;
/** Commands waiting for a hung Redis before new ones are refused at once. */
const MAX_QUEUE = 1_000;
const MAX_RECONNECT_DELAY_MS = 2_000;
/** A Redis that vanished without closing the connection (a host or network gone) never says so: replace the connection. */
const STUCK_MS = 10_000;

/** host:port only: a Redis URL may carry a password, which never reaches a log. */
export function redisAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`;
  } catch {
    return '(unparsable url)';
  }
}

export function createRedisLink(options: RedisLinkOptions): RedisLink {
  const { logger, metrics, timeoutMs } = options;
  const address = redisAddress(options.url);
  let lastLogAt = -Infinity;
  let unlogged = 0;
  let coolUntil = 0;
  let closed = false;
  let lastAnswerAt = Date.now();
  let connectedOnce = false;

  /** At most one line a minute, saying how many troubles it stands for. */
  const warn = (message: string, err?: unknown) => {
    unlogged++;
    const now = Date.now();
    if (now - lastLogAt < LOG_EVERY_MS) return;
    lastLogAt = now;
    const detail = err instanceof Error ? err.message : err === undefined ? undefined : String(err);
    logger.warn({ redis: address, troubles: unlogged, ...(detail && { error: detail }) }, `cache: ${message}; serving from the local cache and the backend (logged at most once a minute)`);
    unlogged = 0;
  };
  const fail = (op: 'get' | 'set', reason: CacheErrorReason, message: string, err?: unknown) => {
    metrics.recordCacheError(op, reason);
    warn(message, err);
    return undefined;
  };

  type Client = ReturnType<typeof RedisModule.createClient>;
  let redis: typeof RedisModule | undefined;
  const connect = (): Client => {
    const c: Client = redis!.createClient({
      url: options.url,
      name: options.name ?? 'dl-version-gateway',
      // Offline: refuse at once rather than queue, so a request never waits for a reconnection.
      disableOfflineQueue: true,
      commandsQueueMaxLength: MAX_QUEUE,
      socket: {
        connectTimeout: Math.max(1_000, timeoutMs),
        reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), MAX_RECONNECT_DELAY_MS),
      },
    });
    const current = () => !closed && c === client;
    // Without a listener an 'error' event would end the process; connection trouble is logged, not thrown.
    c.on('error', (err: unknown) => void (current() && warn('Redis connection error', err)));
    c.on('ready', () => {
      if (!current()) return;
      lastAnswerAt = Date.now();
      metrics.setCacheConnected(true);
      // The first connection is news; later ones (after trouble, already logged) only within the log budget.
      if (!connectedOnce) logger.info({ redis: address }, 'cache: connected to Redis');
      else if (Date.now() - lastLogAt >= LOG_EVERY_MS) logger.info({ redis: address }, 'cache: reconnected to Redis');
      connectedOnce = true;
    });
    c.on('end', () => void (current() && metrics.setCacheConnected(false)));
    c.on('reconnecting', () => void (current() && metrics.setCacheConnected(false)));
    c.connect().catch((err: unknown) => void (current() && warn('cannot connect to Redis (retrying)', err)));
    return c;
  };
  metrics.setCacheConnected(false);
  let client: Client | undefined;
  import('@redis/client').then(
    (module) => {
      redis = module;
      if (!closed) client = connect();
    },
    (err: unknown) => warn('cannot load the Redis client', err),
  );

  /** Replaces a connection that stopped answering; the old one is dropped with whatever it still waits for. */
  const replaceIfStuck = () => {
    if (!client || Date.now() - lastAnswerAt < (options.stuckMs ?? STUCK_MS)) return;
    const old = client;
    lastAnswerAt = Date.now();
    metrics.setCacheConnected(false);
    client = connect();
    old.destroy();
    warn(`Redis answered nothing for ${Math.round((options.stuckMs ?? STUCK_MS) / 1000)} s; opening a new connection`);
  };

  return {
    async command(op, args) {
      if (closed || !client?.isReady) return fail(op, 'unavailable', 'Redis is not connected');
      if (Date.now() < coolUntil) return fail(op, 'skipped', 'Redis timed out recently');
      let timer: NodeJS.Timeout | undefined;
      const timedOut = Symbol('timeout');
      try {
        const reply = await Promise.race([
          client.sendCommand(args).then((answer) => {
            lastAnswerAt = Date.now();
            return answer;
          }),
          // The timer fires before this turn's I/O is read: setImmediate lets a reply already received win, so a
          // busy event loop is not taken for a slow Redis.
          new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => setImmediate(resolve, timedOut), timeoutMs))),
        ]);
        if (reply === timedOut) {
          coolUntil = Date.now() + COOLDOWN_MS;
          fail(op, 'timeout', `Redis did not answer within ${timeoutMs} ms`);
          replaceIfStuck();
          return undefined;
        }
        return reply;
      } catch (err) {
        if (redis && err instanceof redis.ErrorReply) {
          lastAnswerAt = Date.now();
          return fail(op, 'refused', 'Redis refused a command', err);
        }
        return fail(op, 'unavailable', 'Redis command failed', err);
      } finally {
        clearTimeout(timer);
      }
    },
    garbage(op, what) {
      fail(op, 'garbage', `Redis answered garbage (${what})`);
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        client?.destroy();
      } catch {
        /* already gone */
      }
    },
  };
}
