type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * The suites' one "wait until": polls `check` (sync or async; a throw counts as "not yet") every `everyMs` until it
 * returns a truthy value, and resolves with that value. `stopIf` ends the wait at once with its message (a process that
 * exited will never answer). Fails after `timeoutMs` saying what was awaited and the last error seen, if any.
 */
export async function waitUntil<T>(
  check: () => T | Promise<T>,
  {
    what = 'the condition',
    timeoutMs = 10_000,
    everyMs = 25,
    stopIf,
  }: { what?: string; timeoutMs?: number; everyMs?: number; stopIf?: () => string | undefined } = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const stopped = stopIf?.();
    if (stopped) throw new Error(`stopped waiting for ${what}: ${stopped}`);
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline)
      throw new Error(
        `${what} did not happen within ${timeoutMs} ms${lastError ? ` (last error: ${String(lastError)})` : ''}`,
      );
    await new Promise((resolve) => setTimeout(resolve, Math.min(everyMs, Math.max(0, deadline - Date.now()))));
  }
}
