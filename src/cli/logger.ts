// The process logger: JSON lines on stdout; credentials are redacted wherever the gateway logs headers.

import { pino, type Logger } from 'pino';

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

export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { service: 'dl-version-gateway' }, redact: { paths: REDACT_PATHS, censor: CENSOR } });
}
