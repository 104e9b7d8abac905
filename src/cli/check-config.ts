// `check-config`: the validation serve and reload run, without starting; prints the version calendar or the problems.

import { ConfigError } from '../config/load.js';
import { calendarLines } from './calendar-table.js';
import type { Output } from './contract-commands.js';
import { validateConfigFile } from './validate-config.js';

type Env = Readonly<Record<string, string | undefined>>;

/** 0 when serve would start with this file and environment (and a reload would take it), 1 with each problem otherwise. */
export function runCheckConfig(io: Output, file: string, env: Env, now: Date = new Date()): number {
  try {
    const { calendar } = validateConfigFile(file, env);
    io.out(`${file}: valid\n`);
    for (const line of calendarLines(calendar, now)) io.out(line);
    return 0;
  } catch (e) {
    if (e instanceof ConfigError) {
      io.err(e.message);
      return 1;
    }
    throw e;
  }
}
