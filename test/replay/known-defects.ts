// Replayed calls known to fail today, each with the defect it shows: the suites expect them to fail with that
// defect's message, so a fix (or another failure) turns them red until the entry here is removed.

export interface KnownDefect {
  readonly what: string;
  /** What the failure says. */
  readonly shows: RegExp;
}

/** `<method>@<resolved version>` → what is wrong. */
export const KNOWN_DEFECTS: Readonly<Record<string, KnownDefect>> = {};

export const knownDefect = (method: string, at: number): KnownDefect | undefined => KNOWN_DEFECTS[`${method}@${at}`];
