// Chart methods for the three chart kinds, told apart by entry type: Wizard (`*_wizard_node`), QL (`*_ql_node`) and
// Editor (the rest). QL takes flat arguments; Editor takes `{mode, entry}`. The answer is the US entry. Wizard charts
// speak the version 3 Wizard document format: wizard-charts.ts.
// Shapes: datalens-tech/datalens-ui src/shared/schema/mix/actions/{wizard,ql}/*.ts, src/shared/schema/mix/schemas/
// {wizard,ql}.ts, src/shared/types/widget.ts (wizard types), src/shared/constants/entry.ts (QL and Editor types);
// Editor methods: the DataLens API reference (createEditorChart: `mode`, `entry` with type, data, key or workbookId+name).

import { z } from 'zod';
import { BackendError } from '../shared/errors.js';
import type { Entry } from '../stores/index.js';
import { ENTRY_PERMISSIONS, actorOf, fromContract, type Args, type CallContext, type MethodHandler } from './context.js';
import { deleteEntry, modeOf, revisionOf, saveEntry } from './entry-writes.js';
import { HTML_PAGE_TYPE } from './html-pages.js';
import { linksIn, placementOf } from './placement.js';
import { entryView, savedChartView, withShared } from './views.js';
import { wizardChartMethods } from './wizard-charts.js';

type Json = Record<string, unknown>;

interface ChartKind {
  readonly name: 'QL' | 'Editor';
  readonly is: (type: string) => boolean;
  readonly defaultType: string;
  /** QL takes the entry's fields at the top level; Editor nests them under `entry`. */
  readonly nested: boolean;
  /** The real answer's `version` is the format version (1): the stamp goes in `apiVersion` (views.ts stampOf). */
  readonly formatVersion: boolean;
}

const isWizard = (t: string) => t.endsWith('_wizard_node');
const QL: ChartKind = { name: 'QL', is: (t) => t.endsWith('_ql_node'), defaultType: 'graph_ql_node', nested: false, formatVersion: false };
const EDITOR: ChartKind = { name: 'Editor', is: (t) => !isWizard(t) && !QL.is(t) && t !== HTML_PAGE_TYPE, defaultType: 'graph_node', nested: true, formatVersion: true };

const invalid = (path: string, message: string) => new BackendError('VALIDATION_ERROR', message, { issues: [{ path, message }] });

/** The chart's fields: the arguments themselves, or their `entry` for Editor. */
function fieldsOf(kind: ChartKind, args: Args): Json {
  if (!kind.nested) return args;
  const entry = args.entry;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw invalid('entry', 'entry must be an object.');
  return entry as Json;
}

/** QL answers the entry itself; Editor wraps it: `{entry}` (the DataLens API reference). */
const answerOf = (kind: ChartKind, view: Json, extra: Json = {}): Json => (kind.nested ? { entry: view, ...extra } : { ...view, ...extra });

/** A flat (QL) chart's create/update answer carries the real engine's extras (views.ts savedChartView, withShared). */
const savedAnswer = (kind: ChartKind, view: Json, created: boolean): Json =>
  kind.nested ? answerOf(kind, view) : savedChartView({ ...view, data: withShared(view.data) }, created);

/**
 * A QL chart's data names the connection its query runs on. The real charts engine reads data.connection.entryId on
 * every QL write, to make the chart's links (datalens-tech/datalens-ui f581b7c31d6e9189ebeb1e1632b5fe7570534fb8,
 * src/server/configs/shared/ql-chart-template.ts identifyLinks, called by prepareChartData in
 * src/server/components/charts-engine/controllers/charts.ts on create and update), before the storage sees the write:
 * without a connection it answers 400 with its TypeError's text as `{error}`, outside the error envelope. Here the
 * same status, as a VALIDATION_ERROR naming the field. Whether the connection exists is left to the links (linksOf),
 * as the recorded answers show only a missing connection refused.
 */
function requireConnection(data: unknown): void {
  const connection = (data as Json).connection;
  const entryId = connection !== null && typeof connection === 'object' ? (connection as Json).entryId : undefined;
  if (typeof entryId !== 'string' || entryId === '') {
    throw invalid('data.connection.entryId', 'A QL chart names its connection: data.connection.entryId is required.');
  }
}

/** A QL chart links its connection under the alias `connection`, as real DataLens stores it; other charts by id. */
function linksOf(ctx: CallContext, kind: ChartKind, data: unknown): Record<string, string> | null {
  const connection = kind === QL ? ((data as Json).connection as Json | undefined)?.entryId : undefined;
  return typeof connection === 'string' && ctx.store.entries.has(connection) ? { connection } : linksIn(ctx.store, data);
}

const requireChart = (ctx: CallContext, kind: ChartKind, chartId: string): Entry => ctx.store.entries.require(chartId, 'widget', (e) => kind.is(e.type));

// Used only while the contract does not list a method (the Editor ones arrive with the real v2 catalogue).
const byChartId = z.looseObject({ chartId: z.string().min(1) });
const withEntry = z.looseObject({ mode: z.enum(['save', 'publish']).optional(), entry: z.looseObject({}) });

function chartMethods(kind: ChartKind): Record<string, MethodHandler> {
  const n = kind.name;
  return {
    [`get${n}Chart`]: fromContract(`get${n}Chart`, (args, ctx) => {
      const entry = revisionOf(ctx, requireChart(ctx, kind, args.chartId), args);
      const view = entryView(entry, { permissions: !kind.nested && args.includePermissions, links: args.includeLinks !== false, locked: ctx.store.locks.get(entry.entryId) !== undefined, formatVersion: kind.formatVersion });
      return answerOf(kind, view, kind.nested ? { isFavorite: false, ...(args.includePermissions && { permissions: { ...ENTRY_PERMISSIONS } }) } : {});
    }, byChartId),

    [`create${n}Chart`]: fromContract(`create${n}Chart`, (args, ctx) => {
      const fields = fieldsOf(kind, args);
      const type = typeof fields.type === 'string' ? fields.type : kind.defaultType;
      if (!kind.is(type)) throw invalid('type', `"${type}" is not a ${n} chart type.`);
      if (fields.data === null || typeof fields.data !== 'object') throw invalid('data', 'data must be an object.');
      if (kind === QL) requireConnection(fields.data);
      modeOf(args.mode);
      const entry = ctx.store.entries.create(
        {
          ...placementOf(ctx.store, fields),
          scope: 'widget',
          type,
          data: fields.data as Json,
          meta: (fields.meta as Json | undefined) ?? {},
          annotation: (fields.annotation as { description: string } | undefined) ?? null,
          links: (fields.links as Record<string, string> | undefined) ?? linksOf(ctx, kind, fields.data),
        },
        actorOf(ctx),
        ctx.clientVersion,
      );
      return savedAnswer(kind, entryView(entry, { formatVersion: kind.formatVersion }), true);
    }, withEntry),

    [`update${n}Chart`]: fromContract(`update${n}Chart`, (args, ctx) => {
      const fields = fieldsOf(kind, args);
      // As the real engine: the data is checked before the chart is looked up (a 400 before a 404).
      if (kind === QL && fields.data !== undefined) {
        if (fields.data === null || typeof fields.data !== 'object') throw invalid('data', 'data must be an object.');
        requireConnection(fields.data);
      }
      const entry = requireChart(ctx, kind, String(fields.entryId ?? ''));
      const saved = saveEntry(
        ctx,
        entry,
        {
          ...(fields.data !== undefined && { data: fields.data as Json }),
          ...(fields.meta !== undefined && { meta: fields.meta as Json | null }),
          ...(fields.annotation !== undefined && { annotation: fields.annotation as { description: string } }),
          ...(fields.links !== undefined ? { links: fields.links as Record<string, string> } : fields.data !== undefined && { links: linksOf(ctx, kind, fields.data) }),
        },
        modeOf(args.mode),
        fields.lockToken ?? args.lockToken,
      );
      return savedAnswer(kind, entryView(saved, { formatVersion: kind.formatVersion }), false);
    }, withEntry),

    [`delete${n}Chart`]: fromContract(`delete${n}Chart`, (args, ctx) => deleteEntry(ctx, requireChart(ctx, kind, args.chartId), args.lockToken), byChartId),
  };
}

export const chartFamilies: Record<string, MethodHandler> = { ...wizardChartMethods, ...chartMethods(QL), ...chartMethods(EDITOR) };
