import { configure } from './config.ts';

// The service serves this bundle at {origin}/paykit.js: its own URL tells the elements where the service is.
const { href, origin } = new URL(import.meta.url);
const tag = Array.from(document.scripts).find((script) => script.src === href);
configure({ baseUrl: origin, publicKey: tag?.dataset.publicKey });

export * from './index.ts';
