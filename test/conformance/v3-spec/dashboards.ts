// The dashboard methods (tag Dashboard): a one-tab dashboard showing the scenario's Wizard chart. Real version 2
// takes another shape here (CreateDashboardV1Args), so these steps wait for a version-3 head.
// Components: CreateDashboardV2Args, GetDashboardV2Args/Result, UpdateDashboardV2Args, DeleteDashboardArgs,
// DashboardV2, DashDataV2 (counter, salt, tabs and settings required), DashMetaV2, DashTabV2, DashTabItemV2 (its
// widget item), DashLayoutItemV2, DashConnectionV2, EntryPermissions.

import { z } from 'zod';
import { Empty, EntryPermissions, entryFields, loose, str } from './components.js';
import type { Family } from './types.js';

/** DashboardV2: `version` is the dashboard schema version, 2; data requires counter, salt, tabs and settings. */
const DashboardV2 = loose({
  ...entryFields,
  key: z.string().nullable(),
  scope: z.literal('dash'),
  type: z.literal(''),
  version: z.literal(2),
  meta: z.record(z.string(), z.union([z.string(), z.boolean()])).nullable(),
  revUpdatedAt: str.optional(),
  revUpdatedBy: str.optional(),
  data: loose({
    counter: z.number().int().min(1),
    salt: z.string().min(1),
    tabs: z.array(loose({ id: str, title: str, items: z.array(loose({ id: str, namespace: z.literal('default'), type: str, data: loose({}) })), layout: z.array(loose({})), connections: z.array(loose({})), aliases: loose({}) })),
    settings: loose({
      autoupdateInterval: z.number().nullable(),
      maxConcurrentRequests: z.number().nullable(),
      silentLoading: z.boolean(),
      dependentSelectors: z.boolean(),
      expandTOC: z.boolean(),
    }),
  }),
});

const data = (chartId: string, title: string) => ({
  counter: 3,
  salt: 'conformance-salt',
  settings: { autoupdateInterval: null, maxConcurrentRequests: null, silentLoading: false, dependentSelectors: true, expandTOC: false, hideTabs: false, loadPriority: 'charts' },
  tabs: [
    {
      id: 'tab_main',
      title,
      items: [
        {
          id: 'item_orders',
          namespace: 'default',
          type: 'widget',
          data: { hideTitle: false, tabs: [{ id: 'wt_orders', title: 'Orders', chartId, isDefault: true, params: {} }] },
        },
      ],
      layout: [{ i: 'item_orders', x: 0, y: 0, w: 12, h: 8 }],
      connections: [],
      aliases: {},
    },
  ],
});

export const dashboardSteps: Family = [
  {
    method: 'createDashboard',
    request: 'CreateDashboardV2Args',
    response: '{entry: DashboardV2}',
    v3Only: true,
    body: (made) => ({ entry: { workbookId: made.workbook, name: 'Conformance overview', data: data(made.wizardChart!, 'Overview'), meta: {}, annotation: { description: 'Orders at a glance' } } }),
    answer: loose({ entry: DashboardV2 }),
    keep: (a, made) => {
      made.dashboard = a.entry.entryId;
      made.dashboardRevId = a.entry.revId;
    },
  },
  {
    method: 'getDashboard',
    request: 'GetDashboardV2Args',
    response: 'GetDashboardV2Result',
    v3Only: true,
    body: (made) => ({ dashboardId: made.dashboard, workbookId: made.workbook, branch: 'saved', includePermissions: true, includeLinks: true, includeFavorite: true }),
    answer: loose({ entry: DashboardV2, isFavorite: z.boolean().optional(), permissions: EntryPermissions.optional() }),
  },
  {
    method: 'updateDashboard',
    request: 'UpdateDashboardV2Args',
    response: '{entry: DashboardV2}',
    v3Only: true,
    body: (made) => ({
      mode: 'publish',
      entry: { entryId: made.dashboard, revId: made.dashboardRevId, data: data(made.wizardChart!, 'Overview (published)'), meta: {}, annotation: { description: 'Published' } },
    }),
    answer: loose({ entry: DashboardV2 }),
  },
];

export const dashboardTeardown: Family = [
  {
    method: 'deleteDashboard',
    request: 'DeleteDashboardArgs',
    response: 'object',
    v3Only: true,
    body: (made) => ({ dashboardId: made.dashboard }),
    answer: Empty,
  },
];
