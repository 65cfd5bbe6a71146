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
  return performance.getEntriesByType('resource').some((entry) => new RegExp(`/paykit/${tag}-\\w+\\.js$`).test(new URL(entry.name).pathname));
}
