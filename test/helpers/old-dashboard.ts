// A dashboard's data in the v1/v2 shape (what an older client saves), with one tab holding `items`.

type Json = Record<string, unknown>;

export function oldDashboardData(items: readonly Json[], options: { counter: number; salt: string; description: string }): Json {
  return {
    counter: options.counter,
    salt: options.salt,
    schemeVersion: 8,
    description: options.description,
    settings: { autoupdateInterval: null, maxConcurrentRequests: null, silentLoading: false, dependentSelectors: true, hideTabs: false, expandTOC: false },
    tabs: [{ id: 'tab1', title: 'Overview', layout: [], connections: [], aliases: {}, items }],
  };
}
