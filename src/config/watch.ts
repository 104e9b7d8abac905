// Watches the config file's folder (editors and Kubernetes ConfigMaps replace files by rename) and calls
// back, debounced, when the file's content actually changed.

import { createHash } from 'node:crypto';
import { type FSWatcher, readFileSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

export interface ConfigWatcher {
  /**
   * Records the content now in force, so an event that changes nothing does not reload. Pass the digest
   * taken before the file was read: the file may have been written again since (that write must reload).
   */
  accept(digest?: string): void;
  close(): void;
}

export const digestOf = (path: string): string | undefined => {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined; // deleted or unreadable: the reload itself reports it
  }
};

/** Editors write a file in several steps: wait this long after the last event before reading it. */
const DEBOUNCE_MS = 250;

export function watchConfig(path: string, onChange: () => void): ConfigWatcher {
  let known = digestOf(path);
  let timer: NodeJS.Timeout | undefined;
  const name = basename(path);
  const fire = () => {
    timer = undefined;
    const now = digestOf(path);
    if (now !== undefined && now === known) return;
    known = now;
    onChange();
  };
  // Any entry in the folder may matter: a ConfigMap swaps a `..data` symlink, not the file itself.
  const watcher: FSWatcher = watch(dirname(path), { persistent: false }, (_event, file) => {
    if (file && file !== name && !String(file).startsWith('..')) return;
    clearTimeout(timer);
    timer = setTimeout(fire, DEBOUNCE_MS);
  });
  watcher.on('error', () => {
    /* the folder vanished: nothing to watch until restart; SIGHUP still works */
  });
  return {
    accept: (digest) => {
      known = digest ?? digestOf(path);
    },
    close: () => {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
