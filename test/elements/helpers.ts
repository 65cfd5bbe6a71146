/**
 * Shared pieces of the element suites: the real service's address when the test runner provides it, and a
 * tiny in-page fake of `fetch` for what needs no service (rendering, states, validation, accessibility).
 */
import { expect, fixture } from '@open-wc/testing';
import type { TransactionsTable } from '../../src/index.ts';

export interface PaykitTestService {
  baseUrl: string;
  /** The same service behind a proxy whose downloads a test can make fail (test/support/flaky-proxy.js). */
  flakyBaseUrl: string;
  publicKey: string;
  sessionToken: string;
  /** A session token with every console feature (#32); null when the service does not take features. */
  consoleSessionToken: string | null;
  /** A session token granting the payouts of a merchant paid out once (#45); null from a service without payouts. */
  payoutsSessionToken: string | null;
  /** The React major version the runner serves (web-test-runner.config.js). */
  reactMajor: number;
}

declare global {
  interface Window {
    /** Set by the test runner's page when the payment service runs beside the tests. */
    PAYKIT_TEST?: PaykitTestService;
  }
}

/** The real service, or a skip of the calling test when the runner has none. */
export function realService(context: Mocha.Context): PaykitTestService {
  const service = window.PAYKIT_TEST;
  if (!service) context.skip();
  return service!;
}

interface RecordedCall {
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
    /** The calls that write (POST). */
    get writes() {
      return calls.filter((call) => call.method === 'POST');
    },
    /** Calls other than the merchant-settings lookup each public-key element makes. */
    get actions() {
      return calls.filter((call) => !call.path.endsWith('/settings'));
    },
    restore() {
      globalThis.fetch = realFetch;
    },
  };
}

export interface FakeCall {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export type FakeRoute = (call: FakeCall) => Response | Promise<Response>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function ok(data: unknown): Response {
  return json(200, { result: true, message: 'OK', data });
}

/** A fetch that never answers (until aborted): the loading state, held still. */
export const pending: FakeRoute = () => new Promise<Response>(() => {});

/** The service's default widget settings, in the element's own default colour so tests see no change. */
const fakeSettings: FakeRoute = () =>
  ok({
    merchant_name: 'Fake Shop',
    environment: 'sandbox',
    button_label: 'Pay',
    primary_color: '#1a56db',
    text_color: '#ffffff',
  });

export const FAKE_BASE = 'https://pay.fake.test';
export const FAKE_KEY = 'pk_fake_merchant';

/**
 * Replaces fetch with `routes` (matched on "METHOD /path", the path without /api/v1/widgets/{key}); every
 * call is recorded. Unknown routes answer 404 like the service. `restore()` puts the real fetch back.
 */
export function fakeService(routes: Record<string, FakeRoute>) {
  const realFetch = globalThis.fetch;
  const calls: FakeCall[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const call: FakeCall = { method, url, headers: new Headers(init.headers), body };
    calls.push(call);
    const path = url.pathname.replace(/^\/api\/v1\/widgets\/(pk_[\w-]+\/)?/, '/');
    const route = routes[`${method} ${path}`] ?? (path === '/settings' ? fakeSettings : undefined);
    const signal = init.signal;
    const answer = route ? route(call) : json(404, { result: false, message: `No route ${method} ${path}.` });
    return new Promise<Response>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason ?? new DOMException('Aborted', 'AbortError')));
      Promise.resolve(answer).then(resolve, reject);
    });
  };
  return {
    calls,
    /** Calls other than the merchant-settings lookup every public-key element makes once. */
    get actions() {
      return calls.filter((call) => !call.url.pathname.endsWith('/settings'));
    },
    restore() {
      globalThis.fetch = realFetch;
    },
  };
}

/** What the fake console's listing says its session token allows: set by `consoleTable` (the table reads its listing). */
let granted: Record<string, boolean> = {};

/** A fake console service whose listing is `sale` alone, granting what `consoleTable` was given, and `routes`. */
export function consoleService(sale: object, routes: Record<string, FakeRoute>) {
  return fakeService({
    'GET /transactions': () =>
      ok({ items: [sale], page: 1, perPage: 20, totalCount: 1, next_cursor: null, has_more: false, features: granted }),
    ...routes,
  });
}

/** `<transactions-table>` on the fake console service, with a session that grants `features`. */
export async function consoleTable(features: Record<string, boolean>, locale = 'en-US'): Promise<TransactionsTable> {
  const el = document.createElement('transactions-table');
  el.setAttribute('session-token', 'wst_fake');
  el.setAttribute('base-url', FAKE_BASE);
  el.setAttribute('locale', locale);
  granted = features;
  return fixture<TransactionsTable>(el);
}

/** Modules imported on demand: compiled by the test server at their first request, which takes a while on a busy machine. */
export const MODULE = { timeout: 8000 };
/** The modules named `name` the page has fetched. */
export const loadedModules = (name: string) =>
  performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((url) => url.includes(name));

/** The element's shadow root, which every element here has. */
export function shadow(element: HTMLElement): ShadowRoot {
  expect(element.shadowRoot, 'shadow root').to.exist;
  return element.shadowRoot!;
}

export function part<T extends Element = HTMLElement>(element: HTMLElement, name: string): T {
  const found = shadow(element).querySelector<T>(`[part~="${name}"]`);
  expect(found, `part ${name}`).to.exist;
  return found!;
}

export function maybePart<T extends Element = HTMLElement>(element: HTMLElement, name: string): T | null {
  return shadow(element).querySelector<T>(`[part~="${name}"]`);
}

/** Adds page CSS for one test; returns its remover. */
export function pageStyle(text: string): () => void {
  const style = document.createElement('style');
  style.textContent = text;
  document.head.append(style);
  return () => style.remove();
}

/**
 * Resolves when the element event `event` fires on `target`, or rejects after `ms`; a hang becomes a readable
 * failure. Every element event bubbles and is composed (the contract), so every one waited for here is checked.
 */
export function eventWithin<T extends Event = CustomEvent>(target: EventTarget, event: string, ms = 5000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} event within ${ms} ms`)), ms);
    target.addEventListener(
      event,
      (fired) => {
        clearTimeout(timer);
        if (fired.bubbles && fired.composed) resolve(fired as T);
        else reject(new Error(`${event} must bubble and be composed`));
      },
      { once: true },
    );
  });
}

/** Resolves after a few frames in which `event` must NOT fire on `target`. */
export async function noEvent(target: EventTarget, event: string, ms = 150): Promise<void> {
  let fired = false;
  const mark = () => (fired = true);
  target.addEventListener(event, mark);
  await new Promise((resolve) => setTimeout(resolve, ms));
  target.removeEventListener(event, mark);
  expect(fired, `${event} fired`).to.equal(false);
}

export function uniqueOrderId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * A fictional US number (555-0100 to 555-0199) for a test that really texts: the service texts one phone at most
 * a few times an hour per merchant, and the suites share one merchant.
 */
export function uniquePhone(): string {
  return `+1415555${String(100 + Math.floor(Math.random() * 100)).padStart(4, '0')}`;
}
