import type { PaykitTestService } from './helpers.ts';

/** Adds the service's script tag to the page, as a merchant does, and resolves once it has run. */
export function loadScriptTag(service: PaykitTestService): Promise<unknown> {
  const script = document.createElement('script');
  script.type = 'module';
  script.src = `${service.baseUrl}/paykit.js`;
  script.dataset.publicKey = service.publicKey;
  const loaded = new Promise((resolve, reject) => {
    script.addEventListener('load', resolve);
    script.addEventListener('error', reject);
  });
  document.head.append(script);
  return loaded;
}

/** Whether the page has fetched (or preloaded) the script tag's module of `tag`. */
export function requested(tag: string): boolean {
  return performance
    .getEntriesByType('resource')
    .some((entry) => new RegExp(`/paykit/${tag}-\\w+\\.js$`).test(new URL(entry.name).pathname));
}

/** Makes the flaky proxy in front of the service cut the next `times` downloads whose path matches `pattern` (-1: all). */
export async function cut(service: PaykitTestService, pattern: string, times: number): Promise<void> {
  await fetch(`${service.flakyBaseUrl}/__faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pattern, times }),
  });
}

/** The paths of the requests for `tag`'s module that left the page through the flaky proxy, oldest first. */
export async function requestsFor(service: PaykitTestService, tag: string): Promise<string[]> {
  const paths = (await (await fetch(`${service.flakyBaseUrl}/__requests`)).json()) as string[];
  return paths.filter((path) => path.startsWith(`/paykit/${tag}-`));
}
