/** Which test files the inner loop takes, and which need a process of their own: read from their paths and sources. */

/** Folders whose every file needs a packed package, a started demo, or the built bundle and the browser. */
const SLOW_FOLDERS = ['test/package/', 'test/e2e/', 'test/bench/'];

/**
 * What a file's source shows it needs beyond one process and an embedded database: Chromium, or child processes (the
 * service as a process, the CLI, tsc, a build), or a crash. Read from the source so a new file is sorted without a
 * list to keep. PostgreSQL is left out by PAYKIT_TEST_DATABASES=sqlite, which every storage test heeds.
 */
const DRIVES_CHROMIUM = /support\/chromium\.ts|playwright-core/;
const SLOW_MARKERS: [RegExp, string][] = [
  [DRIVES_CHROMIUM, 'Chromium'],
  [/node:child_process|startServiceProcess|startDemo/, 'child processes'],
  [/SIGKILL/, 'a crash'],
];

/** Why `file` is left out of `npm run test:quick`, or undefined when the inner loop runs it. */
export function slowBecause(file: string, source: string): string | undefined {
  const folder = SLOW_FOLDERS.find((prefix) => file.startsWith(prefix));
  if (folder) return `in ${folder}`;
  return SLOW_MARKERS.find(([marker]) => marker.test(source))?.[1];
}

/**
 * A file that checks or changes the process's globals (no DOM before it imports the widgets), or measures its event loop
 * (other files' work would stall it), runs in a process of its own.
 */
export const needsOwnProcess = (source: string) =>
  /globalThis|process\.env\.\w+ =|process\.chdir|monitorEventLoopDelay/.test(source);

/** A file that drives Chromium: it tests pages, which run the same on every Node line (.ci/run runs it on one). */
export const drivesChromium = (source: string) => DRIVES_CHROMIUM.test(source);
