#!/usr/bin/env node
// The executable: runs the command line and exits with its status (serve and backend keep running).

// A signal that arrives while the modules load (seconds under tsx or on a busy host) is held, not fatal, and raised
// again once the command runs: serve has its own handlers by then, any other command meets the signal's default.
const HELD = ['SIGHUP', 'SIGTERM', 'SIGINT'] as const;
const held: NodeJS.Signals[] = [];
const hold = (signal: NodeJS.Signals) => void held.push(signal);
for (const signal of HELD) process.on(signal, hold);

const { runCli } = await import('./commands.js');
for (const signal of HELD) process.off(signal, hold);
// serve installs its handlers before runCli's first wait, so no signal can fall between the two sets of handlers.
runCli(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) }).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
for (const signal of held) process.kill(process.pid, signal);
