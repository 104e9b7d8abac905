import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RouteHistogram } from '../../src/admin/route-histogram.js';

// The request path's histograms print exactly what prom-client's own Histogram prints for the same observations.

describe('RouteHistogram', () => {
  it('prints the same exposition text as a prom-client Histogram fed the same values', async () => {
    const bounds = [0.001, 0.01, 0.1, 1];
    const ours = new Registry();
    const theirs = new Registry();
    const route = new RouteHistogram('x_seconds', 'help text', bounds, ours);
    const reference = new Histogram({ name: 'x_seconds', help: 'help text', labelNames: ['version', 'method'], buckets: bounds, registers: [theirs] });
    route.series('2', 'unseen'); // a route never observed prints nothing, as with prom-client
    const samples: [string, string, number][] = [
      ['1', 'createReport', 0.0005],
      ['1', 'createReport', 0.001], // on a bound: counted in that bucket (le)
      ['1', 'createReport', 0.05],
      ['2', 'getReport', 3],
      ['2', 'getReport', 0.2],
    ];
    for (const [version, method, value] of samples) {
      route.series(version, method).observe(value);
      reference.labels(version, method).observe(value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    route.reset();
    reference.reset();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
