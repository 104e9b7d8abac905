// Records who calls what for the impact report (src/core/impact/): in this process, or, with Redis configured,
// in one report every replica writes to (batched off the request path, once a second) that survives restarts.

import type { Logger } from 'pino';
import type { CacheMetrics } from '../../ports/metrics.js';
import type { ImpactRecorder } from '../../ports/impact.js';
import type { GatewayConfig } from '../../config/schema.js';
import { createRedisLink, type RedisLink } from '../cache/redis-link.js';
import type { LoadedContract } from '../../core/contract-model/load.js';
import { type ImpactStore, watchedPaths } from '../../core/impact/report.js';
import { type ClientRecord, DAYS_KEPT, UsageBook, type UsageLimits, type UsageSnapshot, type UseRecord } from '../../core/impact/usage.js';
import { collect } from '../../core/translate/paths.js';


export interface ImpactRecorderOptions {
  readonly limits: UsageLimits;
  /** Shared through this Redis when given. */
  readonly redis?: { readonly url: string; readonly keyPrefix: string };
  readonly logger: Logger;
  readonly metrics: CacheMetrics;
  /** How often pending records are written to Redis (default 1 s). */
  readonly flushMs?: number;
}

const MEMORY: ImpactStore = Object.freeze({
  kind: 'memory',
  note: 'this process only: each replica reports its own clients, and the record starts empty on every start (configure cache.redis to share it)',
});
const SHARED: ImpactStore = Object.freeze({ kind: 'redis', note: 'shared through Redis: every replica writes to this report, and it survives restarts' });

function pathsIn(contract: LoadedContract, version: number, method: string, body: unknown): string[] | undefined {
  const watched = watchedPaths(contract, version, method);
  if (watched.length === 0) return undefined;
  let found: string[] | undefined;
  for (const path of watched) if (collect(body, path).length > 0) (found ??= []).push(path);
  return found;
}

/**
 * The recorder a gateway process keeps, from its config at start: in Redis when cache.redis is set. Its Redis
 * troubles count with the cache's; the connected gauge stays the cache's own.
 */
export function impactRecorderFor(config: GatewayConfig, logger: Logger, metrics: CacheMetrics): ImpactRecorder {
  const redis = config.cache.redis;
  return createImpactRecorder({
    limits: config.impact,
    ...(redis && { redis: { url: redis.url, keyPrefix: redis.keyPrefix } }),
    logger,
    metrics: { recordCacheError: (op, reason) => metrics.recordCacheError(op, reason), setCacheConnected: () => {} },
  });
}

export function createImpactRecorder(options: ImpactRecorderOptions): ImpactRecorder {
  if (!options.redis) {
    const book = new UsageBook(options.limits);
    return {
      store: MEMORY,
      pathsIn,
      record: (client, version, method, at, paths) => book.record(client, version, method, at, paths),
      snapshot: () => Promise.resolve(book.snapshot()),
      setLimits: (limits) => book.setLimits(limits),
      firstSeenOn: (client, version) => Promise.resolve(book.firstSeenOn(client, version)),
      close: () => Promise.resolve(),
    };
  }
  return new SharedRecorder(options, options.redis);
}

// Hash fields of a client's record in Redis: the parts are joined with a tab (no method, path or client holds one).
const SEP = '\t';
/** Keeps the larger of a stored number and the given one. */
const MAX_SCRIPT = "local c = redis.call('HGET', KEYS[1], ARGV[1]) if not c or tonumber(c) < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end return 1";
/** Keeps the smaller of a stored number and the given one. */
const MIN_SCRIPT = "local c = redis.call('HGET', KEYS[1], ARGV[1]) if not c or tonumber(c) > tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end return 1";

/** Pending records in a book of their own, written to Redis in one batch a second; a batch Redis refused goes back. */
class SharedRecorder implements ImpactRecorder {
  readonly store = SHARED;
  readonly pathsIn = pathsIn;
  private pending: UsageBook;
  private readonly link: RedisLink;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private limits: UsageLimits;
  private readonly key: (name: string) => string;

  constructor(
    private readonly options: ImpactRecorderOptions,
    redis: { readonly url: string; readonly keyPrefix: string },
  ) {
    this.limits = options.limits;
    this.pending = new UsageBook(options.limits);
    // Off the request path: a batch may wait longer for Redis than a request's cache lookup does.
    this.link = createRedisLink({ url: redis.url, timeoutMs: 2_000, logger: options.logger, metrics: options.metrics, name: 'dl-version-gateway-impact' });
    this.key = (name) => `${redis.keyPrefix}impact:${name}`;
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? 1_000);
    this.timer.unref();
  }

  record(client: string, version: number, method: string, at: number, paths: readonly string[] | undefined): void {
    this.pending.record(client, version, method, at, paths);
  }

  setLimits(limits: UsageLimits): void {
    this.limits = limits;
    this.pending.setLimits(limits);
  }

  // First sightings read from Redis: they never change once set (a batch only lowers them, and only a later batch
  // of this very client could), so a found one is kept (bounded: past the cap, the cache starts over).
  private readonly firstSeen = new Map<string, number>();

  async firstSeenOn(client: string, version: number): Promise<number | undefined | null> {
    const key = `${version} ${client}`;
    const known = this.firstSeen.get(key);
    if (known !== undefined) return known;
    const reply = await this.link.command('get', ['HGET', this.key(`seen:v${version}`), client]);
    const pending = this.pending.firstSeenOn(client, version);
    if (reply === undefined) return pending ?? null;
    const stored = reply === null ? undefined : Number(reply);
    const first = stored === undefined ? pending : pending === undefined ? stored : Math.min(stored, pending);
    if (stored !== undefined) {
      if (this.firstSeen.size >= 100_000) this.firstSeen.clear();
      this.firstSeen.set(key, stored);
    }
    return first;
  }

  /** Writes the pending batch (one at a time); what Redis could not take is kept for the next. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new UsageBook(this.limits);
      const ok = await this.write(batch.snapshot());
      if (!ok) {
        batch.merge(this.pending);
        this.pending = batch;
      }
    });
    return this.flushing;
  }

  private async write(batch: UsageSnapshot): Promise<boolean> {
    const cmd = (args: string[]) => this.link.command('set', args);
    const results: Promise<unknown>[] = [];
    for (const c of batch.clients) {
      const h = this.key(`c:${c.client}`);
      results.push(cmd(['ZADD', this.key('clients'), 'GT', String(c.lastSeen), c.client]));
      results.push(cmd(['EVAL', MIN_SCRIPT, '1', this.key('first'), c.client, String(c.firstSeen)]));
      for (const u of c.uses) {
        const use = `${u.version}${SEP}${u.method}`;
        results.push(cmd(['HINCRBY', h, `u${SEP}${use}`, String(u.calls)]));
        results.push(cmd(['EVAL', MIN_SCRIPT, '1', h, `f${SEP}${use}`, String(u.firstSeen)]));
        results.push(cmd(['EVAL', MAX_SCRIPT, '1', h, `l${SEP}${use}`, String(u.lastSeen)]));
        // Who was seen on each version and since when, outside the bounded report: a version closed to new clients reads it.
        results.push(cmd(['EVAL', MIN_SCRIPT, '1', this.key(`seen:v${u.version}`), c.client, String(u.firstSeen)]));
        for (const [path, n] of Object.entries(u.paths)) results.push(cmd(['HINCRBY', h, `p${SEP}${use}${SEP}${path}`, String(n)]));
      }
      for (const [day, n] of Object.entries(c.days)) results.push(cmd(['HINCRBY', h, `d${SEP}${day}`, String(n)]));
    }
    if (batch.dropped.paths) results.push(cmd(['HINCRBY', this.key('dropped'), 'paths', String(batch.dropped.paths)]));
    if (batch.dropped.clients) results.push(cmd(['HINCRBY', this.key('dropped'), 'clients', String(batch.dropped.clients)]));
    const replies = await Promise.all(results);
    // The first reply tells whether Redis took the batch; a later failure mid-batch is rare and is not replayed (it would double counts).
    if (replies[0] === undefined) return false;
    await this.bound();
    return true;
  }

  /** Past maxClients, the clients seen longest ago leave the shared record, and are counted. */
  private async bound(): Promise<void> {
    const count = Number(await this.link.command('set', ['ZCARD', this.key('clients')]));
    const over = count - this.limits.maxClients;
    if (!(over > 0)) return;
    const popped = (await this.link.command('set', ['ZPOPMIN', this.key('clients'), String(over)])) as unknown;
    if (!Array.isArray(popped)) return;
    const names = [...pairs(popped).keys()];
    if (names.length === 0) return;
    await Promise.all([
      this.link.command('set', ['DEL', ...names.map((n) => this.key(`c:${n}`))]),
      this.link.command('set', ['HDEL', this.key('first'), ...names]),
      this.link.command('set', ['HINCRBY', this.key('dropped'), 'clients', String(names.length)]),
    ]);
  }

  async snapshot(): Promise<UsageSnapshot> {
    await this.flush();
    const get = (args: string[]) => this.link.command('get', args);
    const [members, first, dropped] = await Promise.all([
      get(['ZRANGE', this.key('clients'), '0', '-1', 'WITHSCORES']),
      get(['HGETALL', this.key('first')]),
      get(['HGETALL', this.key('dropped')]),
    ]);
    if (!Array.isArray(members)) throw new Error('the shared impact record (Redis) cannot be read now');
    const firsts = pairs(first);
    const clients: ClientRecord[] = [];
    const scored = [...pairs(members)];
    const hashes = await Promise.all(scored.map(([n]) => get(['HGETALL', this.key(`c:${n}`)])));
    scored.forEach(([client, score], i) => {
      const lastSeen = Number(score);
      const fields = pairs(hashes[i]);
      const uses = new Map<string, { -readonly [K in keyof UseRecord]: UseRecord[K] } & { paths: Record<string, number> }>();
      const use = (version: string, method: string) => {
        const key = `${version}${SEP}${method}`;
        let u = uses.get(key);
        if (!u) uses.set(key, (u = { version: Number(version), method, calls: 0, firstSeen: lastSeen, lastSeen, paths: {} }));
        return u;
      };
      const days: [string, number][] = [];
      for (const [field, value] of fields) {
        const [tag, a = '', b = '', ...rest] = field.split(SEP);
        const n = Number(value);
        if (tag === 'u') use(a, b).calls = n;
        else if (tag === 'f') use(a, b).firstSeen = n;
        else if (tag === 'l') use(a, b).lastSeen = n;
        else if (tag === 'p') use(a, b).paths[rest.join(SEP)] = n;
        else if (tag === 'd') days.push([a, n]);
      }
      days.sort((x, y) => x[0].localeCompare(y[0]));
      clients.push({
        client,
        firstSeen: Number(firsts.get(client) ?? lastSeen),
        lastSeen,
        uses: [...uses.values()],
        days: Object.fromEntries(days.slice(-DAYS_KEPT)),
      });
    });
    const d = pairs(dropped);
    return { clients, dropped: { clients: Number(d.get('clients') ?? 0), paths: Number(d.get('paths') ?? 0) } };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    await this.link.close();
  }
}

/** A reply of pairs (HGETALL, ZRANGE … WITHSCORES): flat [a, b, …], nested [[a, b], …] or an object; as a map. */
function pairs(reply: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (Array.isArray(reply) && reply.every(Array.isArray)) for (const [k, v] of reply as unknown[][]) out.set(String(k), String(v));
  else if (Array.isArray(reply)) for (let i = 0; i + 1 < reply.length; i += 2) out.set(String(reply[i]), String(reply[i + 1]));
  else if (reply && typeof reply === 'object') for (const [k, v] of Object.entries(reply)) out.set(k, String(v));
  return out;
}
