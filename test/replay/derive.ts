// A body at a version newer than the fixtures are written for: the newest fixture version's body, translated up to
// the head by the contract itself (as the gateway would), so that a new version replays before its fixtures exist.

import { upToHead as headBody } from '../helpers/head-body.js';
import { FIXTURE_VERSIONS } from './fixture.js';

/** The newest version the fixtures are written for. */
export const NEWEST_FIXTURE_VERSION: number = FIXTURE_VERSIONS.at(-1)!;

/** True when `version` is newer than every version the fixtures are written for. */
export const beyondFixtures = (version: number): boolean => version > NEWEST_FIXTURE_VERSION;

/** The head-version body of `body`, which the fixture wrote for `from`: translated up through every version since. */
export const upToHead = headBody;
