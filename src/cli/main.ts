#!/usr/bin/env node
// The executable: runs the command line and exits with its status (serve and backend keep running).

import { runCli } from './commands.js';

runCli(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) }).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
