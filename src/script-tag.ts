import { configure } from './config.ts';

// The service serves this bundle at {origin}/paykit.js: its own URL tells the elements where the service is.
const ownUrl = new URL(import.meta.url);
const tag = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).find(
  (script) => new URL(script.src, document.baseURI).href === ownUrl.href,
);
configure({ baseUrl: ownUrl.origin, publicKey: tag?.dataset.publicKey });

export * from './index.ts';
