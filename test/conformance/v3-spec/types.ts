// What one step of the conformance scenario is: a call of a real version-3 method with a body written from the
// spec's request schema, and the spec's answer schema to parse the answer with.

import type { z } from 'zod';

/** Ids made by earlier steps (a collection, a workbook, a chart, …), read by later steps' bodies. */
export type Made = Record<string, string>;

export interface SpecStep {
  readonly method: string;
  /** The spec's request and response component names (or how the path declares them inline). */
  readonly request: string;
  readonly response: string;
  /**
   * Set when real version 2 answers this method with a different shape (dashboards, Wizard charts): the step runs
   * only once the contract's head has reached the spec's version.
   */
  readonly v3Only?: true;
  /** The body, built from the ids the earlier steps made. */
  readonly body: (made: Made) => unknown;
  /** The spec's answer schema (zod, written from the response component). */
  readonly answer: z.ZodType;
  /** Records the ids this answer makes, for the steps after it. */
  readonly keep?: (answer: any, made: Made) => void;
}

/** One step per call: a method may appear more than once (a status polled twice). */
export type Family = readonly SpecStep[];
