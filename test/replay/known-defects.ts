// Replayed calls known to fail today, each with the defect it shows: the suites expect them to fail with that
// defect's message, so a fix (or another failure) turns them red until the entry here is removed.

import type { Version } from './fixture.js';

export interface KnownDefect {
  readonly what: string;
  /** What the failure says. */
  readonly shows: RegExp;
}

const VERSION_STAMP: KnownDefect = {
  what: "the answer's entry.version is the API version the object was saved under (2); the real answer's is its format version, literal 1",
  shows: /entry\.version/,
};

/** `<method>@<resolved version>` → what is wrong. */
export const KNOWN_DEFECTS: Readonly<Record<string, KnownDefect>> = {
  'createDashboard@2': VERSION_STAMP,
  'getDashboard@2': VERSION_STAMP,
  'updateDashboard@2': VERSION_STAMP,
  'createEditorChart@2': VERSION_STAMP,
  'getEditorChart@2': VERSION_STAMP,
  'updateEditorChart@2': VERSION_STAMP,
};

export const knownDefect = (method: string, at: Version): KnownDefect | undefined => KNOWN_DEFECTS[`${method}@${at}`];
