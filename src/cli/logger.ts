// The process logger: JSON lines on stdout; credentials are redacted wherever the gateway logs headers.

import { pino, type DestinationStream, type Logger } from 'pino';
import { LogStream } from './log-stream.js';

export const REDACT_PATHS = [
  'headers.authorization',
  'headers.cookie',
  'headers["proxy-authorization"]',
  'headers["x-api-key"]',
  '*.authorization',
  '*.password',
  '*.token',
  '*.secret',
];

export const CENSOR = '[redacted]';

/** Why `level` is not a log level pino knows, or undefined when it is. */
export function logLevelProblem(level: string): string | undefined {
  const known = [...Object.keys(pino.levels.values), 'silent'];
  return known.includes(level) ? undefined : `LOG_LEVEL (environment variable): ${JSON.stringify(level.slice(0, 40))} is not a log level (${known.join(', ')})`;
}

export function createLogger(level = process.env.LOG_LEVEL || 'info', destination?: DestinationStream): Logger {
  // pid and service on every line: several gateways often log to one place.
  const options = { level, base: { pid: process.pid, service: 'dl-version-gateway' }, redact: { paths: REDACT_PATHS, censor: CENSOR } };
  return pino(options, destination ?? new LogStream(1));
}

/** The logger for everything but the per-request line: credentials and the operator's paths redacted. */
export function redactingLogger(logger: Logger, operatorPaths: readonly string[]): Logger {
  return logger.child({}, { redact: { paths: [...REDACT_PATHS, ...operatorPaths], censor: CENSOR } });
}

/**
 * The logger for the one line per request. That line is built by the gateway from known fields (ids,
 * versions, method, status, timings, error code, the caller's org id or credential hash), never from
 * headers or bodies, so it needs only the operator's paths (the wildcards cost a few per cent of a request's CPU: BENCHMARKS.md).
 */
export function requestLineLogger(logger: Logger, operatorPaths: readonly string[]): Logger {
  return logger.child({}, { redact: { paths: [...operatorPaths], censor: CENSOR } });
}
