// How an API version number is written wherever the gateway reads one: header, path, backend answer.

/** Canonical decimal, as a regular-expression source: no sign, no leading zero, no fraction, no hex. */
export const VERSION_PATTERN = '[1-9][0-9]*';

export const VERSION_NUMBER = new RegExp(`^${VERSION_PATTERN}$`);

/** A version in a path or a backend's answer has at most this many digits (a longer one names nothing). */
export const MAX_VERSION_DIGITS = 9;

/** The version `text` names, when it is a version number of at most MAX_VERSION_DIGITS digits. */
export const versionNumberIn = (text: string): number | undefined =>
  text.length <= MAX_VERSION_DIGITS && VERSION_NUMBER.test(text) ? Number(text) : undefined;

/**
 * The header's reading: a whole number in decimal, leading zeros and a fraction of zeros allowed, since real DataLens
 * reads the header as a number (its recorded answers serve `01` and `1.0` as version 1). Group 1 is the canonical
 * number. Sign, exponent, `0x`/`0o`/`0b` and whitespace other than HTTP's stay refused (docs/reference/errors.md).
 */
export const HEADER_VERSION_NUMBER = new RegExp(`^0*(${VERSION_PATTERN})(?:\\.0*)?$`);
