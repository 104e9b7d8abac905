// Version 3, Wizard charts: the change from version 2 and its migrations. Requests of version 1 and 2 clients go up
// with their config as a v3 document (wizard-config.ts); answers come down as the flat entry with the config the
// client wrote. The rules and their sources: docs/reference/object-versions.md ("Wizard charts at version 3").

import { custom, object, omit, request } from '../../core/contract-model/builders.js';
import { GatewayError } from '../../core/errors.js';
import type { Change, CustomChange, Json, Target } from '../../core/contract-model/types.js';
import { API_VERSION_FIELD } from '../datalens/objects.js';
import { lostPaths } from '../../core/translate/engine.js';
import { configDown, configUp, isWizardDocument, withoutLegacy } from './wizard-config.js';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An old config → the v3 document; 422 where the config has no visualization id (the document requires `visualization.type`). */
function documentOf(data: unknown): Json {
  const doc = configUp(isObj(data) ? data : {});
  if (typeof (doc.visualization as Json).type !== 'string') {
    throw new GatewayError('VERSION_TRANSLATION_FAILED', 'a Wizard chart needs `data.visualization.id` from version 3 on (its document requires `visualization.type`)', {
      field: 'data.visualization.id',
      reason: 'the version 3 Wizard document requires a visualization type',
    });
  }
  return doc;
}

/** A body with `data` replaced by its document; everything else passes unchanged (`template` is implied from v3 on). */
function withDocument(body: Json): Json {
  const out = omit(body, 'template', 'data');
  out.data = documentOf(body.data);
  return out;
}

/** updateWizardChart: `entryId` is named `chartId`, and `data` becomes the document. */
function updateUp(body: Json): Json {
  const out = omit(withDocument(body), 'entryId');
  out.chartId = body.entryId;
  return out;
}

/** A v3 answer (`{entry, isFavorite?, permissions?}`) → the flat v1/v2 entry, stamped in `version`, with its old config. */
function flatEntry(body: Json): Json {
  const entry = body.entry;
  if (!isObj(entry)) return body;
  const out = omit(entry, API_VERSION_FIELD);
  out.version = entry[API_VERSION_FIELD];
  if (isWizardDocument(entry.data)) out.data = configDown(entry.data);
  if (body.permissions !== undefined) out.permissions = body.permissions;
  return out;
}

/**
 * A create/update answer also holds the config as JSON text in `data.shared`, as the real version-1 charts engine
 * answers a write (the recorded answers of datalens-ui f581b7c).
 */
function savedEntry(body: Json): Json {
  const out = flatEntry(body);
  if (isObj(out.data)) out.data = { ...out.data, shared: JSON.stringify(out.data, null, 4) };
  return out;
}

/** A listing row carrying a Wizard chart's content (getEntries with includeData) → its old config. */
function rowDown(row: Json): Json {
  if (typeof row.type !== 'string' || !row.type.endsWith('_wizard_node') || !isWizardDocument(row.data)) return row;
  return { ...row, data: configDown(row.data) };
}

/** The way back for a row (the guard's round trip): a Wizard chart's config as a version 3 client would send it; any other row as it is. */
function rowUp(row: Json): Json {
  if (typeof row.type !== 'string' || !row.type.endsWith('_wizard_node') || !isObj(row.data) || isWizardDocument(row.data)) return row;
  return { ...row, data: configUp(row.data) };
}

/**
 * A v3 document → the config a version 2 backend takes, refused (422, the fields named) when the config does not
 * give the document back: what the client sent would be lost.
 */
function configForOlder(doc: unknown): Json {
  if (!isObj(doc)) return {};
  const config = configDown(withoutLegacy(doc));
  const lost = lostPaths(doc, withoutLegacy(configUp(structuredClone(config))));
  if (lost.length > 0) {
    const fields = lost.map((p) => `data.${p}`);
    throw new GatewayError('VERSION_TRANSLATION_FAILED', `a version 2 Wizard config cannot carry ${fields.join(', ')} of this document (the backend speaks API version 2 or below)`, {
      field: fields[0],
      fields,
      reason: 'the document does not translate to a version 2 config and back unchanged',
    });
  }
  return config;
}

/** createWizardChart, down: the document becomes the config, with the template version 2 requires. */
function createDown(body: Json): Json {
  const out = omit(body, 'data');
  out.template = 'datalens';
  out.data = configForOlder(body.data);
  return out;
}

/** updateWizardChart, down: `chartId` is named `entryId`; version 2 takes no `revId` (refused, never dropped). */
function updateDown(body: Json): Json {
  if (body.revId !== undefined) {
    throw new GatewayError('VERSION_TRANSLATION_FAILED', 'version 2 updateWizardChart takes no revId (the backend speaks API version 2 or below)', {
      field: 'revId',
      fields: ['revId'],
      reason: 'no such argument below version 3',
    });
  }
  const out = omit(createDown(body), 'chartId');
  out.entryId = body.chartId;
  return out;
}

/**
 * The config of a v1/v2 chart answer: its own fields, or, when the answer holds the config only as JSON text in
 * `data.shared` (open-source DataLens's charts engine answers a write so, datalens-ui f581b7c), that text parsed.
 */
function configOfAnswer(data: Json): Json {
  if (typeof data.shared === 'string' && !Object.hasOwn(data, 'visualization')) {
    try {
      const config: unknown = JSON.parse(data.shared);
      if (isObj(config)) return config;
    } catch {
      /* not JSON: the fields there are all there is */
    }
  }
  return omit(data, 'shared');
}

/** The inverse of flatEntry: the flat v1/v2 entry → `{entry, isFavorite?, permissions?}`, the config as a v3 document. */
function wrappedEntry(body: Json): Json {
  if (typeof body.entryId !== 'string') return body;
  const entry = omit(body, 'version', 'permissions', 'isFavorite');
  entry[API_VERSION_FIELD] = body.version;
  entry.version = 1;
  if (isObj(body.data) && !isWizardDocument(body.data)) entry.data = withoutLegacy(configUp(configOfAnswer(body.data)));
  const out: Json = { entry };
  if (body.isFavorite !== undefined) out.isFavorite = body.isFavorite;
  if (body.permissions !== undefined) out.permissions = body.permissions;
  return out;
}

const all = (target: (m: string) => Target, methods: readonly string[], paths: readonly string[]) =>
  methods.flatMap((m) => paths.map((path) => ({ target: target(m), path })));
const response = (m: string): Target => ({ response: m });
const ENTRY_FIELDS = ['entryId', 'key', 'scope', 'type', 'revId', 'savedId', 'publishedId', 'workbookId', 'tenantId', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy', 'hidden', 'public', 'meta', 'links', 'annotation', 'data'];

export const wizardDocumentFormat: CustomChange = custom({
  description:
    'Wizard charts: get/create/updateWizardChart take and answer the Wizard document format. `data` becomes `{sources, visualization}` (datasets, filters, hierarchies, links and field updates under `sources`; placeholders, colors, shapes, labels, sort and extraSettings as visualization sections), answers wrap the chart in `entry` (stamped in `entry.apiVersion`), updateWizardChart names the chart `chartId`, and `template` is gone. Charts written by version 1 and 2 clients read back exactly as written.',
  compatible: false,
  covers: [
    ...all(request, ['createWizardChart', 'updateWizardChart'], ['template', 'data']),
    { target: request('updateWizardChart'), path: 'entryId' },
    { target: request('updateWizardChart'), path: 'chartId' },
    { target: request('updateWizardChart'), path: 'revId' },
    // GetWizardChartV1Args is not closed: unknown fields now reach the backend instead of a 400.
    { target: request('getWizardChart'), path: '' },
    // The flat v2 entry's fields move under `entry`.
    ...all(response, ['getWizardChart', 'createWizardChart', 'updateWizardChart'], ['entry', ...ENTRY_FIELDS]),
    ...all(response, ['getWizardChart'], ['isFavorite', 'permissions']),
    { target: object('entry'), path: 'data' },
  ],
  request: { createWizardChart: withDocument, updateWizardChart: updateUp },
  response: { getWizardChart: flatEntry, createWizardChart: savedEntry, updateWizardChart: savedEntry },
  // The way down and up, for a backend below version 3.
  requestDown: { createWizardChart: createDown, updateWizardChart: updateDown },
  responseUp: { getWizardChart: wrappedEntry, createWizardChart: wrappedEntry, updateWizardChart: wrappedEntry },
  object: { entry: rowDown },
  objectUp: { entry: rowUp },
});

export const wizardChartChangesV3: readonly Change[] = [wizardDocumentFormat];
