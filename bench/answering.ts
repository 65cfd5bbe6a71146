/** Resolves once `url` answers at all (any status), polling every 100 ms; fails after `seconds`. */
export async function answering(url: string, what: string, seconds = 30): Promise<void> {
  for (let i = 0; i < seconds * 10; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${what} did not answer at ${url} within ${seconds} s`);
}
