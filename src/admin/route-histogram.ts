// A latency histogram by API version and method for the request path: one row of bucket counts per label pair, kept
// in a plain array. prom-client's labelled children hash their labels on every observation (BENCHMARKS.md); this one
// finds its row once per route. The registry reads it through get(), in the shape prom-client's own histograms give.

import type { Registry } from 'prom-client';

/** One (version, method) series: counts per bucket (the last one above every bound), sum and count. */
export class RouteSeries {
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<{ version: string; method: string }>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > (bounds[i] as number)) i++;
    (this.counts[i] as number)++;
    this.sum += value;
    this.count++;
  }
}

interface Sample {
  readonly metricName: string;
  readonly labels: Record<string, string | number>;
  readonly value: number;
}

export class RouteHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly rows = new Map<string, RouteSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    // The registry prints any metric whose get() answers in prom-client's shape.
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** The series of one route (created on first use; versions and method names are bounded). */
  series(version: string, method: string): RouteSeries {
    const key = `${version} ${method}`;
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = new RouteSeries({ version, method }, this.bounds)));
    return row;
  }

  /** Cumulative buckets (`le`, "+Inf" last), then `_sum` and `_count`, per series. */
  get(): { name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: Sample[] } {
    const values: Sample[] = [];
    for (const row of this.rows.values()) {
      if (row.count === 0) continue; // a route seen but never observed here (no translation at the head version)
      let acc = 0;
      this.bounds.forEach((bound, i) => {
        acc += row.counts[i] as number;
        values.push({ metricName: `${this.name}_bucket`, labels: { le: bound, ...row.labels }, value: acc });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...row.labels }, value: row.count });
      values.push({ metricName: `${this.name}_sum`, labels: { ...row.labels }, value: row.sum });
      values.push({ metricName: `${this.name}_count`, labels: { ...row.labels }, value: row.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.rows.clear();
  }
}
