// Who called what: per client, the methods it called at each version, the watched request fields it sent
// (paths only, never values), first and last seen, and calls per day. Bounded: past the caps the clients
// (or a client's paths) seen longest ago are dropped, and counted. Plain data; the caller supplies the time.

/** One method at one version, as one client used it. */
export interface UseRecord {
  readonly version: number;
  readonly method: string;
  readonly calls: number;
  readonly firstSeen: number;
  readonly lastSeen: number;
  /** Watched request field paths the client sent, with how many calls sent each. */
  readonly paths: Readonly<Record<string, number>>;
}

export interface ClientRecord {
  readonly client: string;
  readonly firstSeen: number;
  readonly lastSeen: number;
  readonly uses: readonly UseRecord[];
  /** Calls per UTC day ("2026-11-26"), the last DAYS_KEPT days the client called on. */
  readonly days: Readonly<Record<string, number>>;
}

export interface UsageSnapshot {
  readonly clients: readonly ClientRecord[];
  /** Clients and paths dropped to stay within the caps, since the record began. */
  readonly dropped: { readonly clients: number; readonly paths: number };
}

export interface UsageLimits {
  readonly maxClients: number;
  /** Distinct method × version × path entries kept per client. */
  readonly maxPathsPerClient: number;
}

/** Days of per-day counts kept per client. */
export const DAYS_KEPT = 31;
const DAY_MS = 86_400_000;

interface Use {
  version: number;
  method: string;
  calls: number;
  firstSeen: number;
  lastSeen: number;
  paths: Map<string, number>;
}

interface Client {
  firstSeen: number;
  lastSeen: number;
  uses: Map<string, Use>;
  /** Day number (days since the epoch) → calls. */
  days: Map<number, number>;
  pathCount: number;
}

const dayName = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export class UsageBook {
  private clients = new Map<string, Client>();
  private droppedClients = 0;
  private droppedPaths = 0;

  constructor(private limits: UsageLimits) {}

  setLimits(limits: UsageLimits): void {
    this.limits = limits;
  }

  get size(): number {
    return this.clients.size;
  }

  /** When `client` was first seen calling `version`, or undefined when it is not in the record. */
  firstSeenOn(client: string, version: number): number | undefined {
    const c = this.clients.get(client);
    if (!c) return undefined;
    let first: number | undefined;
    for (const use of c.uses.values()) if (use.version === version && (first === undefined || use.firstSeen < first)) first = use.firstSeen;
    return first;
  }

  /** One call: `paths` are the watched request field paths it sent (undefined or empty: none). */
  record(client: string, version: number, method: string, at: number, paths?: readonly string[]): void {
    this.add(client, version, method, at, at, 1, paths, 1);
  }

  /** Adds counts (one call, or a batch of them from another book). */
  private add(
    client: string,
    version: number,
    method: string,
    first: number,
    last: number,
    calls: number,
    paths: readonly string[] | ReadonlyMap<string, number> | undefined,
    pathCalls: number,
    days?: ReadonlyMap<number, number>,
  ): void {
    let c = this.clients.get(client);
    if (!c) {
      if (this.clients.size >= this.limits.maxClients) this.dropOldest();
      c = { firstSeen: first, lastSeen: last, uses: new Map(), days: new Map(), pathCount: 0 };
      this.clients.set(client, c);
    } else {
      if (first < c.firstSeen) c.firstSeen = first;
      if (last > c.lastSeen) c.lastSeen = last;
    }
    const key = `${version} ${method}`;
    let use = c.uses.get(key);
    if (!use) c.uses.set(key, (use = { version, method, calls: 0, firstSeen: first, lastSeen: last, paths: new Map() }));
    use.calls += calls;
    if (first < use.firstSeen) use.firstSeen = first;
    if (last > use.lastSeen) use.lastSeen = last;
    if (paths) {
      const entries: Iterable<[string, number]> = Array.isArray(paths)
        ? (paths as readonly string[]).map((p): [string, number] => [p, pathCalls])
        : (paths as ReadonlyMap<string, number>);
      for (const [path, n] of entries) {
        const had = use.paths.get(path);
        if (had === undefined) {
          if (c.pathCount >= this.limits.maxPathsPerClient) {
            this.droppedPaths++;
            continue;
          }
          c.pathCount++;
        }
        use.paths.set(path, (had ?? 0) + n);
      }
    }
    if (days) for (const [day, n] of days) c.days.set(day, (c.days.get(day) ?? 0) + n);
    else {
      const day = Math.floor(last / DAY_MS);
      c.days.set(day, (c.days.get(day) ?? 0) + calls);
    }
    if (c.days.size > DAYS_KEPT) {
      const kept = [...c.days.keys()].sort((a, b) => b - a).slice(0, DAYS_KEPT);
      for (const day of [...c.days.keys()]) if (!kept.includes(day)) c.days.delete(day);
    }
  }

  /** Drops the tenth of the clients seen longest ago (at least one), so that a full book is not scanned per new client. */
  private dropOldest(): void {
    const byAge = [...this.clients.entries()].sort((a, b) => a[1].lastSeen - b[1].lastSeen);
    const n = Math.max(1, Math.floor(this.clients.size / 10), this.clients.size - this.limits.maxClients + 1);
    for (const [name] of byAge.slice(0, n)) this.clients.delete(name);
    this.droppedClients += n;
  }

  /** Adds another book's counts (a batch that could not be written elsewhere goes back in). */
  merge(other: UsageBook): void {
    for (const [name, c] of other.clients) {
      for (const use of c.uses.values()) this.add(name, use.version, use.method, use.firstSeen, use.lastSeen, use.calls, use.paths, 0, new Map());
      const mine = this.clients.get(name);
      if (mine) for (const [day, n] of c.days) mine.days.set(day, (mine.days.get(day) ?? 0) + n);
    }
    this.droppedClients += other.droppedClients;
    this.droppedPaths += other.droppedPaths;
  }

  snapshot(): UsageSnapshot {
    const clients = [...this.clients.entries()].map(
      ([client, c]): ClientRecord => ({
        client,
        firstSeen: c.firstSeen,
        lastSeen: c.lastSeen,
        uses: [...c.uses.values()].map((u) => ({ ...u, paths: Object.fromEntries(u.paths) })),
        days: Object.fromEntries([...c.days.entries()].sort((a, b) => a[0] - b[0]).map(([d, n]) => [dayName(d), n])),
      }),
    );
    return { clients, dropped: { clients: this.droppedClients, paths: this.droppedPaths } };
  }
}
