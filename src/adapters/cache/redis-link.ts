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
  return new Link(options);
}

type Client = ReturnType<typeof RedisModule.createClient>;

/** The link's state: the current connection, the log budget, the cooldown after a timeout, the last answer seen. */
class Link implements RedisLink {
  private readonly address: string;
  private lastLogAt = -Infinity;
  private unlogged = 0;
  private coolUntil = 0;
  private closed = false;
  private lastAnswerAt = Date.now();
  private connectedOnce = false;
  private redis: typeof RedisModule | undefined;
  private client: Client | undefined;

  constructor(private readonly options: RedisLinkOptions) {
    this.address = redisAddress(options.url);
    options.metrics.setCacheConnected(false);
    import('@redis/client').then(
      (module) => {
        this.redis = module;
        if (!this.closed) this.client = this.connect();
      },
      (err: unknown) => this.warn('cannot load the Redis client', err),
    );
  }

  /** At most one line a minute, saying how many troubles it stands for. */
  private warn(message: string, err?: unknown): void {
    this.unlogged++;
    const now = Date.now();
    if (now - this.lastLogAt < LOG_EVERY_MS) return;
    this.lastLogAt = now;
    const detail = err instanceof Error ? err.message : err === undefined ? undefined : String(err);
    this.options.logger.warn(
      { redis: this.address, troubles: this.unlogged, ...(detail && { error: detail }) },
      `cache: ${message}; serving from the local cache and the backend (logged at most once a minute)`,
    );
    this.unlogged = 0;
  }

  private fail(op: 'get' | 'set', reason: CacheErrorReason, message: string, err?: unknown): undefined {
    this.options.metrics.recordCacheError(op, reason);
    this.warn(message, err);
    return undefined;
  }

  private connect(): Client {
    const { options } = this;
    const c: Client = this.redis!.createClient({
      url: options.url,
      name: options.name ?? 'dl-version-gateway',
      // Offline: refuse at once rather than queue, so a request never waits for a reconnection.
      disableOfflineQueue: true,
      commandsQueueMaxLength: MAX_QUEUE,
      socket: {
        connectTimeout: Math.max(1_000, options.timeoutMs),
        reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), MAX_RECONNECT_DELAY_MS),
      },
    });
    const current = () => !this.closed && c === this.client;
    // Without a listener an 'error' event would end the process; connection trouble is logged, not thrown.
    c.on('error', (err: unknown) => void (current() && this.warn('Redis connection error', err)));
    c.on('ready', () => void (current() && this.ready()));
    c.on('end', () => void (current() && options.metrics.setCacheConnected(false)));
    c.on('reconnecting', () => void (current() && options.metrics.setCacheConnected(false)));
    c.connect().catch((err: unknown) => void (current() && this.warn('cannot connect to Redis (retrying)', err)));
    return c;
  }

  private ready(): void {
    this.lastAnswerAt = Date.now();
    this.options.metrics.setCacheConnected(true);
    // The first connection is news; later ones (after trouble, already logged) only within the log budget.
    if (!this.connectedOnce) this.options.logger.info({ redis: this.address }, 'cache: connected to Redis');
    else if (Date.now() - this.lastLogAt >= LOG_EVERY_MS) this.options.logger.info({ redis: this.address }, 'cache: reconnected to Redis');
    this.connectedOnce = true;
  }

  /** Replaces a connection that stopped answering; the old one is dropped with whatever it still waits for. */
  private replaceIfStuck(): void {
    const stuckMs = this.options.stuckMs ?? STUCK_MS;
    if (!this.client || Date.now() - this.lastAnswerAt < stuckMs) return;
    const old = this.client;
    this.lastAnswerAt = Date.now();
    this.options.metrics.setCacheConnected(false);
    this.client = this.connect();
    old.destroy();
    this.warn(`Redis answered nothing for ${Math.round(stuckMs / 1000)} s; opening a new connection`);
  }

  async command(op: 'get' | 'set', args: readonly string[]): Promise<unknown> {
    const client = this.client;
    if (this.closed || !client?.isReady) return this.fail(op, 'unavailable', 'Redis is not connected');
    if (Date.now() < this.coolUntil) return this.fail(op, 'skipped', 'Redis timed out recently');
    const timeoutMs = this.options.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = Symbol('timeout');
    try {
      const reply = await Promise.race([
        client.sendCommand(args).then((answer) => {
          this.lastAnswerAt = Date.now();
          return answer;
        }),
        // The timer fires before this turn's I/O is read: setImmediate lets a reply already received win, so a
        // busy event loop is not taken for a slow Redis.
        new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => setImmediate(resolve, timedOut), timeoutMs))),
      ]);
      if (reply !== timedOut) return reply;
      this.coolUntil = Date.now() + COOLDOWN_MS;
      this.fail(op, 'timeout', `Redis did not answer within ${timeoutMs} ms`);
      this.replaceIfStuck();
      return undefined;
    } catch (err) {
      if (this.redis && err instanceof this.redis.ErrorReply) {
        this.lastAnswerAt = Date.now();
        return this.fail(op, 'refused', 'Redis refused a command', err);
      }
      return this.fail(op, 'unavailable', 'Redis command failed', err);
    } finally {
      clearTimeout(timer);
    }
  }

  garbage(op: 'get' | 'set', what: string): void {
    this.fail(op, 'garbage', `Redis answered garbage (${what})`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      this.client?.destroy();
    } catch {
      /* already gone */
    }
  }
}
