/** Shared pieces of the adapter suites: the real service, a record of the calls made to it, and element lookups. */
import { expect, waitUntil } from '@open-wc/testing';

export interface PaykitTestService {
  baseUrl: string;
  publicKey: string;
  sessionToken: string;
  /** The React major version the runner serves (web-test-runner.config.js). */
  reactMajor: number;
}

/** The real service the test runner started (test/support/browser-service.js), or a skip when there is none. */
export function realService(context: Mocha.Context): PaykitTestService {
  const service = (window as { PAYKIT_TEST?: PaykitTestService }).PAYKIT_TEST;
  if (!service) context.skip();
  return service!;
}

export interface RecordedCall {
  method: string;
  path: string;
}

/** Records every fetch the page makes (it still reaches the service); `restore()` puts the real fetch back. */
export function recordFetches() {
  const realFetch = globalThis.fetch;
  const calls: RecordedCall[] = [];
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    calls.push({ method: (init?.method ?? 'GET').toUpperCase(), path: url.pathname });
    return realFetch(input, init);
  };
  return {
    calls,
    /** Calls other than the merchant-settings lookup each public-key element makes. */
    get actions() {
      return calls.filter((call) => !call.path.endsWith('/settings'));
    },
    restore() {
      globalThis.fetch = realFetch;
    },
  };
}

export function part<T extends Element = HTMLElement>(element: Element, name: string): T {
  const found = element.shadowRoot?.querySelector<T>(`[part~="${name}"]`);
  expect(found, `part ${name}`).to.exist;
  return found!;
}

/** The one element named `tag` in `container`, once it is upgraded and has rendered. */
export async function onlyElement<T extends HTMLElement & { updateComplete: Promise<boolean> }>(container: Element, tag: string): Promise<T> {
  await waitUntil(() => container.querySelectorAll(tag).length > 0, `<${tag}> rendered`);
  const found = container.querySelectorAll<T>(tag);
  expect(found, `<${tag}> elements`).to.have.length(1);
  await customElements.whenDefined(tag);
  await found[0]!.updateComplete;
  return found[0]!;
}

export function uniqueOrderId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/** A message from the hosted pay page, as the pay button receives it from the service's origin. */
export function payPageMessage(origin: string, data: Record<string, unknown>): MessageEvent {
  return new MessageEvent('message', { origin, data: { type: 'paykit:payment', ...data } });
}

/** A fresh container in the page, removed by `remove()`. */
export function container(): HTMLDivElement {
  const div = document.createElement('div');
  document.body.append(div);
  return div;
}
