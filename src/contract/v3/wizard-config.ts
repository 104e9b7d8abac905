// Version 3, Wizard charts: a chart config as version 1 and 2 clients send it ↔ the version 3 Wizard document, both ways.
//
// Sources. The config of versions 1 and 2: datalens-tech/datalens-ui (commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8),
// src/shared/types/wizard/ (ChartsConfig, Placeholder), as a real version 1 API answers createWizardChart (recorded
// 2026-11-26 against that commit). The document of version 3: datalens-tech/datalens-sdk spec/yacloud.json at
// 021501bb6ccd3165eaa128155d91f67e01525fe9, components WizardV1ConfigSchema (`sources`, `visualization`) and
// WizardV1CombinedChartLayerSchema (layers). The rules and why: docs/reference/object-versions.md ("Wizard charts at version 3").

type Json = Record<string, unknown>;

/** The version that introduced the Wizard document format (the backend answers LEGACY_CONFIG only below it). */
export const WIZARD_DOCUMENT_VERSION = 3;
/** A path into a JSON value, one segment per level (keys may hold dots). */
export type Path = readonly (string | number)[];
/** One value moved by the translation: where it sits in the old config, where it sits in the v3 document. */
export type Move = readonly [from: Path, to: Path];

/**
 * The field of the v3 document that keeps what an older client's config holds and the document has no place for, so
 * that client reads back exactly what it wrote. The backend answers it to clients older than version 3 only.
 */
export const LEGACY_CONFIG = 'legacyConfig';

/** What LEGACY_CONFIG holds: the old config without the moved values, and where each moved value went. */
export interface LegacyConfig {
  readonly rest: Json;
  readonly moves: readonly Move[];
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: unknown, key: string | number): boolean => (Array.isArray(o) || isObj(o)) && Object.hasOwn(o, key);
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);
/** Sets an own property, also one named "__proto__" (JSON.parse makes those: never a prototype change). */
function put(o: Json, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

/**
 * The config version a canonical config (made from a v3 document) is written in: the newest of datalens-ui f581b7c
 * (src/shared/types/wizard/versions.ts, ChartsConfigVersion.V15). A config must say its version: open-source
 * DataLens's charts engine refuses one without it (it migrates by it).
 */
export const CANONICAL_CONFIG_VERSION = '15';

/** The config's lists of data sources that the document groups under `sources` (same names). */
const SOURCE_FIELDS = ['datasetsIds', 'filters', 'hierarchies', 'links', 'updates'] as const;

/** Config fields that become a section of the visualization: `[section, part]` (`colors` → `colors.items`). */
const SECTION_FIELDS: Readonly<Record<string, readonly [string, string]>> = {
  colors: ['colors', 'items'],
  colorsConfig: ['colors', 'settings'],
  shapes: ['shapes', 'items'],
  shapesConfig: ['shapes', 'settings'],
  labels: ['labels', 'items'],
  sort: ['sort', 'items'],
};

/** The layer's shared placeholders (`commonPlaceholders`) that become sections of the v3 layer. */
const LAYER_SECTION_FIELDS = SECTION_FIELDS;

/** Visualization keys of the document that are not placeholder sections. */
const RESERVED = new Set(['type', 'chartSettings', 'layers', 'selectedLayerId', 'layerSettings', ...Object.values(SECTION_FIELDS).map(([s]) => s)]);

/** Is `data` a v3 Wizard document (WizardV1ConfigSchema requires `sources` and `visualization`)? */
export function isWizardDocument(data: unknown): data is Json {
  return isObj(data) && isObj(data.sources) && isObj(data.visualization);
}

/** The moves for one placeholder list: each placeholder's `items` and `settings` become the section named by its `id`. */
function placeholderMoves(placeholders: unknown, from: Path, to: Path, used: Set<string>): Move[] {
  const moves: Move[] = [];
  if (!Array.isArray(placeholders)) return moves;
  placeholders.forEach((p, i) => {
    if (!isObj(p) || typeof p.id !== 'string' || RESERVED.has(p.id) || used.has(p.id) || FORBIDDEN.has(p.id)) return;
    used.add(p.id);
    for (const part of ['items', 'settings']) if (has(p, part)) moves.push([[...from, i, part], [...to, p.id, part]]);
  });
  return moves;
}

/** The moves of one layer of a layered visualization (geolayer, combined chart). */
function layerMoves(layer: unknown, from: Path, to: Path): Move[] {
  if (!isObj(layer)) return [];
  const moves: Move[] = [];
  if (typeof layer.id === 'string') moves.push([[...from, 'id'], [...to, 'type']]);
  if (has(layer, 'layerSettings')) moves.push([[...from, 'layerSettings'], [...to, 'layerSettings']]);
  const used = new Set<string>();
  const common = layer.commonPlaceholders;
  for (const [field, [section, part]] of Object.entries(LAYER_SECTION_FIELDS)) {
    if (has(common, field)) {
      moves.push([[...from, 'commonPlaceholders', field], [...to, section, part]]);
      used.add(section);
    }
  }
  moves.push(...placeholderMoves(layer.placeholders, [...from, 'placeholders'], to, used));
  return moves;
}

/** Every value of an old config that has a place in the v3 document, and that place. */
export function movesOf(config: Json): Move[] {
  const moves: Move[] = [];
  for (const field of SOURCE_FIELDS) if (has(config, field)) moves.push([[field], ['sources', field]]);
  const used = new Set<string>();
  for (const [field, [section, part]] of Object.entries(SECTION_FIELDS)) {
    if (has(config, field)) {
      moves.push([[field], ['visualization', section, part]]);
      used.add(section);
    }
  }
  if (has(config, 'extraSettings')) moves.push([['extraSettings'], ['visualization', 'chartSettings']]);
  const viz = config.visualization;
  if (!isObj(viz)) return moves;
  if (typeof viz.id === 'string') moves.push([['visualization', 'id'], ['visualization', 'type']]);
  if (has(viz, 'selectedLayerId')) moves.push([['visualization', 'selectedLayerId'], ['visualization', 'selectedLayerId']]);
  moves.push(...placeholderMoves(viz.placeholders, ['visualization', 'placeholders'], ['visualization'], used));
  if (Array.isArray(viz.layers)) {
    viz.layers.forEach((layer, j) => moves.push(...layerMoves(layer, ['visualization', 'layers', j], ['visualization', 'layers', j])));
  }
  return moves;
}

function getAt(root: unknown, path: Path): { found: boolean; value?: unknown } {
  let node = root;
  for (const seg of path) {
    if (!has(node, seg)) return { found: false };
    node = (node as Json)[seg as string];
  }
  return { found: true, value: node };
}

/** Sets `value` at `path`, creating objects on the way (array elements must exist). */
function setAt(root: Json, path: Path, value: unknown): void {
  let node: unknown = root;
  path.forEach((seg, i) => {
    if (typeof seg === 'string' && FORBIDDEN.has(seg)) throw new Error(`forbidden path segment "${seg}"`);
    const container = node as Json;
    if (i === path.length - 1) {
      container[seg as string] = value;
      return;
    }
    if (!isObj(container[seg as string]) && !Array.isArray(container[seg as string])) container[seg as string] = {};
    node = container[seg as string];
  });
}

function deleteAt(root: unknown, path: Path): void {
  const parent = getAt(root, path.slice(0, -1));
  if (parent.found && isObj(parent.value)) delete parent.value[path[path.length - 1] as string];
}

/**
 * An old config → the v3 document. Values with a place in the document move there; the rest, with the list of moves,
 * is kept in LEGACY_CONFIG. The document always has `sources.datasetsIds` (the spec requires it; `[]` when absent).
 */
export function configUp(config: Json): Json {
  const moves = movesOf(config);
  const rest = structuredClone(config);
  const layers = isObj(config.visualization) && Array.isArray(config.visualization.layers) ? config.visualization.layers.map(() => ({})) : undefined;
  const doc: Json = { sources: { datasetsIds: [] }, visualization: layers ? { layers } : {} };
  for (const [from, to] of moves) {
    setAt(doc, to, getAt(rest, from).value);
    deleteAt(rest, from);
  }
  const legacy: LegacyConfig = { rest, moves };
  doc[LEGACY_CONFIG] = legacy;
  return doc;
}

const isPath = (p: unknown): p is Path => Array.isArray(p) && p.every((s) => typeof s === 'string' || (Number.isInteger(s) && s >= 0));
const isLegacy = (v: unknown): v is LegacyConfig =>
  isObj(v) && isObj(v.rest) && Array.isArray(v.moves) && v.moves.every((m) => Array.isArray(m) && m.length === 2 && isPath(m[0]) && isPath(m[1]));

/** A v3 visualization section's parts as the old config's fields: `{items, settings}` → `[items, settings]`. */
const partsOf = (section: unknown): { items?: unknown; settings?: unknown } => (isObj(section) ? section : {});

/** A v3 layer → an old layer, where the document holds no LEGACY_CONFIG (the canonical shape). */
function canonicalLayer(layer: unknown): unknown {
  if (!isObj(layer)) return layer;
  const out: Json = {};
  const common: Json = {};
  const placeholders: Json[] = [];
  for (const [key, value] of Object.entries(layer)) {
    if (key === 'type') out.id = value;
    else if (key === 'layerSettings') out.layerSettings = value;
    else if (Object.values(LAYER_SECTION_FIELDS).some(([s]) => s === key)) {
      const { items, settings } = partsOf(value);
      for (const [field, [section, part]] of Object.entries(LAYER_SECTION_FIELDS)) {
        if (section !== key) continue;
        const v = part === 'items' ? items : settings;
        if (v !== undefined) common[field] = v;
      }
    } else if (isObj(value) && Array.isArray(value.items)) placeholders.push({ id: key, ...value });
    else put(out, key, value);
  }
  return { ...out, commonPlaceholders: common, placeholders };
}

/** The old config for a document no older client wrote: every part at its place, placeholders in document order. */
function canonicalConfig(doc: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(doc)) if (key !== 'sources' && key !== 'visualization' && key !== LEGACY_CONFIG) put(out, key, value);
  const sources = doc.sources as Json;
  for (const field of SOURCE_FIELDS) if (has(sources, field)) out[field] = sources[field];
  const viz: Json = {};
  const placeholders: Json[] = [];
  for (const [key, value] of Object.entries(doc.visualization as Json)) {
    if (key === 'type') viz.id = value;
    else if (key === 'chartSettings') out.extraSettings = value;
    else if (key === 'selectedLayerId') viz.selectedLayerId = value;
    else if (key === 'layers' && Array.isArray(value)) viz.layers = value.map(canonicalLayer);
    else if (Object.values(SECTION_FIELDS).some(([s]) => s === key)) {
      const { items, settings } = partsOf(value);
      for (const [field, [section, part]] of Object.entries(SECTION_FIELDS)) {
        if (section !== key) continue;
        const v = part === 'items' ? items : settings;
        if (v !== undefined) out[field] = v;
      }
    } else if (isObj(value) && Array.isArray(value.items)) placeholders.push({ id: key, ...value });
    else put(viz, key, value);
  }
  out.visualization = { ...viz, placeholders };
  if (!has(out, 'version')) out.version = CANONICAL_CONFIG_VERSION;
  return out;
}

/**
 * The v3 document → an old config. With LEGACY_CONFIG (the document was written by an older client): its rest, with
 * each moved value put back where it came from — exactly what was written. Without it: the canonical config.
 */
export function configDown(doc: Json): Json {
  const legacy = doc[LEGACY_CONFIG];
  if (!isLegacy(legacy)) return canonicalConfig(structuredClone(doc));
  const out = structuredClone(legacy.rest);
  for (const [from, to] of legacy.moves) {
    const got = getAt(doc, to);
    if (got.found) setAt(out, from, structuredClone(got.value));
  }
  return out;
}

/** The document as a version 3 (or later) client reads it: without LEGACY_CONFIG. */
export function withoutLegacy(doc: Json): Json {
  if (!has(doc, LEGACY_CONFIG)) return doc;
  const out: Json = {};
  for (const key of Object.keys(doc)) if (key !== LEGACY_CONFIG) put(out, key, doc[key]);
  return out;
}
