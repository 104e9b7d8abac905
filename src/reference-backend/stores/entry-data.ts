// The content a new entry starts with when none is given (the seed's entries): a minimal valid payload per kind.
// Dashboard data follows datalens-tech/datalens-ui src/shared/zod-schemas/dash.ts (dataSchema; schemeVersion 8 is
// DASH_CURRENT_SCHEME_VERSION in src/shared/constants/dash.ts); the others are small stand-ins of our own.

export const DASH_SCHEME_VERSION = 8;

export function emptyDashData(): Record<string, unknown> {
  return {
    counter: 1,
    salt: 'reference',
    schemeVersion: DASH_SCHEME_VERSION,
    tabs: [{ id: 'tab1', title: 'Tab 1', items: [], layout: [], connections: [], aliases: {} }],
    settings: {
      autoupdateInterval: null,
      maxConcurrentRequests: null,
      silentLoading: false,
      dependentSelectors: true,
      hideTabs: false,
      expandTOC: false,
    },
  };
}

/** Default content by scope and type: a dashboard's tabs, a chart's config, a dataset's sources, a connection's host. */
export function defaultData(scope: string, type: string): Record<string, unknown> {
  switch (scope) {
    case 'dash':
      return emptyDashData();
    case 'widget':
      if (type.endsWith('_ql_node')) return { queryValue: 'SELECT 1', visualization: { id: 'line' } };
      if (type.endsWith('_wizard_node')) return { visualization: { id: 'line' }, datasetsIds: [] };
      // An Editor chart's tabs, each a string: graph_node's current tab names (datalens-tech/datalens-ui
      // src/server/components/charts-engine/components/chart-validator.ts MODEL_TABS, js/ui/url renamed).
      return { prepare: '', params: '', sources: '', controls: '', graph: '', shared: '', statface_graph: '' };
    case 'dataset':
      return { dataset: { sources: [], source_avatars: [], avatar_relations: [], result_schema: [], rls: {} }, options: {} };
    case 'connection':
      return { host: 'localhost', port: 8443, db_name: 'default', username: 'reader' };
    default:
      return {};
  }
}
