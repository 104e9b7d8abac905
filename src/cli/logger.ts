// The process logger: JSON lines on stdout; credentials are redacted wherever they appear.

import { pino, type Logger } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.authorization',
  '*.password',
  '*.token',
  '*.secret',
];

export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { service: 'dl-version-gateway' }, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
