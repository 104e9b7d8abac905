// Signed notices before a sunset: posts each due notice (src/core/impact/notices.ts) to the client's webhook,
// signed with HMAC-SHA256 over "<timestamp>.<body>" (as Stripe and GitHub sign theirs), at least once with
// retries and backoff, and once per client, version and occasion: claimed in Redis across replicas and
// restarts (in this process without Redis). Deliveries and failures are kept for the admin listener.

import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import type { CacheMetrics } from '../../ports/metrics.js';
import { createRedisLink, type RedisLink } from '../cache/redis-link.js';
import { type DueNotice, dueNotices } from '../../core/impact/notices.js';
import type { ImpactReport } from '../../core/impact/report.js';

/** The signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const SIGNATURE_HEADER = 'x-dlgw-signature';
export const NOTICE_ID_HEADER = 'x-dlgw-notice-id';

export interface DeliveryRecord {
  readonly id: string;
  readonly client: string;
  readonly version: number;
  readonly type: string;
  /** The webhook's origin and path only: a query may carry the receiver's token. */
  readonly target: string;
  readonly outcome: 'delivered' | 'failed';
  readonly attempts: number;
  readonly status?: number;
  readonly error?: string;
  readonly at: string;
}

export interface NotifierOptions {
  readonly webhooks: Readonly<Record<string, string>>;
  readonly secret: string;
  readonly leadDays: readonly number[];
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  /** The impact report now (every replica's, with Redis). */
  readonly report: () => Promise<ImpactReport>;
  readonly clock: () => Date;
  readonly redis?: { readonly url: string; readonly keyPrefix: string };
  readonly logger: Logger;
  readonly metrics: CacheMetrics;
}

export interface Notifier {
  /** Sends what is due now (one check at a time); resolves once those deliveries ended. */
  check(): Promise<void>;
  /** The latest deliveries and failures, newest first. */
  deliveries(): Promise<DeliveryRecord[]>;
  close(): Promise<void>;
}

/** Signs a body as the receiver checks it. */
export function signNotice(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const LOG_SIZE = 200;
/** A claim outlives any delivery's retries: a replica that died mid-delivery leaves it to another after this. */
const CLAIM_MS = 15 * 60_000;

const targetOf = (url: string) => {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
};

export function createNotifier(options: NotifierOptions): Notifier {
  const link: RedisLink | undefined = options.redis
    ? createRedisLink({ url: options.redis.url, timeoutMs: 2_000, logger: options.logger, metrics: options.metrics, name: 'dl-version-gateway-notices' })
    : undefined;
  const ledger = new NoticeLedger(link, options.redis?.keyPrefix ?? '');
  let running: Promise<void> | undefined;
  const checkOnce = async () => {
    const due = dueNotices(await options.report(), options.webhooks, options.leadDays, options.clock());
    const mine: DueNotice[] = [];
    for (const notice of due) if (await ledger.claim(notice.body.id)) mine.push(notice);
    await Promise.all(mine.map((notice) => deliver(options, ledger, notice)));
  };
  return {
    check() {
      running ??= checkOnce().finally(() => (running = undefined));
      return running;
    },
    deliveries: () => ledger.deliveries(),
    async close() {
      await running?.catch(() => undefined);
      await link?.close();
    },
  };
}

/** Who sends which notice, and the log of deliveries: in Redis across replicas and restarts, else in this process. */
class NoticeLedger {
  // Without Redis: this process's own claims and log.
  private readonly claimed = new Set<string>();
  private readonly log: DeliveryRecord[] = [];

  constructor(
    private readonly link: RedisLink | undefined,
    private readonly keyPrefix: string,
  ) {}

  private key(name: string): string {
    return `${this.keyPrefix}notice:${name}`;
  }

  /** One sender per notice: true when this replica may send it (never sent, nor being sent elsewhere). */
  async claim(id: string): Promise<boolean> {
    if (!this.link) {
      if (this.claimed.has(id)) return false;
      this.claimed.add(id);
      return true;
    }
    return (await this.link.command('set', ['SET', this.key(id), 'sending', 'NX', 'PX', String(CLAIM_MS)])) === 'OK';
  }

  /** Delivered: kept for good. Failed: released, so that a later check tries again (at least once). */
  async settle(id: string, delivered: boolean): Promise<void> {
    if (!this.link) {
      if (!delivered) this.claimed.delete(id);
      return;
    }
    await this.link.command('set', delivered ? ['SET', this.key(id), 'delivered'] : ['DEL', this.key(id)]);
  }

  async record(entry: DeliveryRecord): Promise<void> {
    if (!this.link) {
      this.log.unshift(entry);
      this.log.length = Math.min(this.log.length, LOG_SIZE);
      return;
    }
    await this.link.command('set', ['LPUSH', this.key('log'), JSON.stringify(entry)]);
    await this.link.command('set', ['LTRIM', this.key('log'), '0', String(LOG_SIZE - 1)]);
  }

  async deliveries(): Promise<DeliveryRecord[]> {
    if (!this.link) return [...this.log];
    const reply = await this.link.command('get', ['LRANGE', this.key('log'), '0', String(LOG_SIZE - 1)]);
    if (!Array.isArray(reply)) throw new Error('the shared notice log (Redis) cannot be read now');
    return reply.map((line) => JSON.parse(String(line)) as DeliveryRecord);
  }
}

interface Attempts {
  readonly attempts: number;
  readonly status?: number | undefined;
  /** undefined: delivered. */
  readonly error?: string | undefined;
}

/** Posts the signed body until the webhook answers 2xx or the attempts run out, backing off between them. */
async function post(options: NotifierOptions, notice: DueNotice, body: string): Promise<Attempts> {
  let attempts = 0;
  let status: number | undefined;
  let error: string | undefined;
  for (; attempts < options.maxAttempts; ) {
    if (attempts > 0) await new Promise((resolve) => setTimeout(resolve, options.retryBaseMs * 2 ** (attempts - 1)));
    attempts++;
    try {
      const timestamp = Math.floor(options.clock().getTime() / 1000);
      const res = await fetch(notice.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signNotice(options.secret, body, timestamp), [NOTICE_ID_HEADER]: notice.body.id },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) return { attempts, status };
      error = `answered ${res.status}`;
    } catch (e) {
      status = undefined;
      error = (e as Error).message;
    }
  }
  return { attempts, status, error };
}

/** Sends one claimed notice, then settles its claim, logs the outcome and keeps its record. */
async function deliver(options: NotifierOptions, ledger: NoticeLedger, notice: DueNotice): Promise<void> {
  const { attempts, status, error } = await post(options, notice, JSON.stringify(notice.body));
  const delivered = error === undefined;
  await ledger.settle(notice.body.id, delivered);
  const entry: DeliveryRecord = {
    id: notice.body.id,
    client: notice.client,
    version: notice.body.version,
    type: notice.body.type,
    target: targetOf(notice.url),
    outcome: delivered ? 'delivered' : 'failed',
    attempts,
    ...(status !== undefined && { status }),
    ...(error !== undefined && { error }),
    at: options.clock().toISOString(),
  };
  await ledger.record(entry);
  if (delivered) options.logger.info({ notice: entry.id, target: entry.target, attempts }, 'notice delivered');
  else options.logger.warn({ notice: entry.id, target: entry.target, attempts, error }, 'notice not delivered; a later check tries again');
}
