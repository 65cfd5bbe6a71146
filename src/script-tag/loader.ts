/**
 * `/paykit.js`, the script tag. It configures the page from its own tag (`data-public-key`, and its own origin as
 * the service), then defines each Paykit element the first time one appears in the document, or in a shadow root it
 * is told about with `observe()`. It carries Lit, the elements' base and `<pay-button>` in itself, so a pay button
 * works one download after the page, as a bare Lit element does; the other elements' modules are content-hashed
 * files under `/paykit/`, cached for a year, imported when one appears, and take Lit and the base from this file.
 *
 *     <script type="module" src="https://pay.example.com/paykit.js" data-public-key="pk_…"></script>
 *     import { observe } from 'https://pay.example.com/paykit.js'; observe(this.shadowRoot);
 *
 * A module that fails to download is tried again (three times, over about five seconds). If it still fails, each
 * element of its kind says so in place and fires its `*-error` event with code `network`, the document gets
 * `paykit:load-error`, and the next element of that kind added, or the browser coming back online, tries again.
 */
import { pageConfig } from '../config.ts';
import { defineElement } from '../shared/define.ts';
import { PayButton } from '../elements/pay-button/pay-button.ts';

export * from './lent.ts';

/** The elements this file carries; server/script-tag/bundle.ts builds the others into files of their own. */
const CARRIED: Record<string, CustomElementConstructor> = { 'pay-button': PayButton };
/** Filled in by the build (server/script-tag/bundle.ts): each tag's module, then every file it imports (none when carried). */
declare const PAYKIT_ELEMENTS: Record<string, string[]>;
/** Lit's hydration support, then the files it imports: applied before any element is defined when one was rendered on a server. */
declare const PAYKIT_HYDRATION: string[];
/** The texts of each language besides English, by primary subtag: fetched beside the elements on a page in that language. */
declare const PAYKIT_LANGUAGES: Record<string, string[]>;

const { href, origin } = new URL(import.meta.url);
const tag = Array.from(document.scripts).find((script) => script.src === href);
Object.assign(pageConfig(), { baseUrl: origin }, tag?.dataset.publicKey && { publicKey: tag.dataset.publicKey.trim() });

const selector = Object.keys(PAYKIT_ELEMENTS).join();
const requested = new Set<string>();
/** How often each file failed to load. Its next try asks for a URL that has not failed: Chromium before 156, Firefox
 * and Safari keep a failed module for the page's life and answer its URL with that failure, without a request. */
const failures: Record<string, number> = {};
const fileUrl = (file: string) =>
  new URL(`paykit/${file}${failures[file] ? `?retry=${failures[file]}` : ''}`, import.meta.url).href;
/** Settled once elements may be defined: after Lit's hydration support, when the first elements found were server-rendered. */
let litReady: Promise<unknown> | undefined;

/** Fetches `files` in parallel, instead of one after the other as each module names the next. */
function preload(files: string[]): void {
  for (const file of files) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = fileUrl(file);
    document.head.append(link);
  }
}

function define(elements: Element[]): void {
  const wanted = elements.filter(({ localName }) => {
    // Defined already: by this loader, or by the npm package on the same page.
    if (requested.has(localName) || customElements.get(localName)) return false;
    requested.add(localName);
    return true;
  });
  if (!wanted.length) return;
  if (!litReady) {
    // A declarative shadow root is already there before any script: the element was rendered on a server, and
    // Lit must hydrate it (keep its content) rather than render it again. Decided once, for the first elements found.
    const hydrate = wanted.some((element) => element.shadowRoot);
    if (hydrate) preload(PAYKIT_HYDRATION);
    // Without its hydration support (it would not load), Lit renders the elements afresh: a flash, not a failure.
    litReady = hydrate ? importAgainOnFailure(PAYKIT_HYDRATION[0]!).catch(() => undefined) : Promise.resolve();
    // A page in Spanish, French or German: its texts travel with the elements, not one round trip after them.
    preload(PAYKIT_LANGUAGES[document.documentElement.lang.split('-')[0]!.toLowerCase()] ?? []);
  }
  for (const { localName } of wanted) {
    const files = PAYKIT_ELEMENTS[localName]!;
    preload(files);
    const carried = CARRIED[localName];
    litReady
      .then(() => (carried ? defineElement(localName, carried) : importAgainOnFailure(files[0]!)))
      .then(
        () => elementsIn(localName).forEach((element) => element.querySelector(`:scope > [${FALLBACK}]`)?.remove()),
        (error: unknown) => failed(localName, error),
      );
  }
}

const FALLBACK = 'data-paykit-unavailable';
const observed = new Set<Document | DocumentFragment | Element>();

/** `import()`, tried again after 0.25, 1 and 4 seconds, each time (in this round or a later one) at a new URL. */
async function importAgainOnFailure(file: string): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await import(fileUrl(file));
    } catch (error) {
      failures[file] = (failures[file] ?? 0) + 1;
      if (attempt === 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 4 ** attempt));
    }
  }
}

/** An element's module could not be loaded: every element of that kind says so, and the next chance tries again. */
function failed(localName: string, error: unknown): void {
  requested.delete(localName);
  const message =
    'Payments are unavailable: the connection to the payment service failed. Check it and reload the page.';
  for (const element of elementsIn(localName)) {
    // The element's own error event, as it fires it: `request-error`, `transactions-error`.
    element.dispatchEvent(
      new CustomEvent(`${localName.split('-')[0]}-error`, {
        detail: { code: 'network', message },
        bubbles: true,
        composed: true,
      }),
    );
    if (element.querySelector(`:scope > [${FALLBACK}]`)) continue;
    const fallback = document.createElement('p');
    fallback.setAttribute(FALLBACK, '');
    fallback.setAttribute('role', 'alert');
    fallback.textContent = message;
    element.append(fallback);
  }
  for (const root of observed) watcher.observe(root, { childList: true, subtree: true });
  document.dispatchEvent(new CustomEvent('paykit:load-error', { detail: { tag: localName, error } }));
}

/** The elements named `localName` in every root observed. */
const elementsIn = (localName: string) =>
  [...observed].flatMap((root) => within(root).filter((element) => element.localName === localName));

/** The Paykit elements in `root`, itself included. */
function within(root: ParentNode): Element[] {
  return [...(root instanceof Element ? [root] : []), ...Array.from(root.querySelectorAll(selector))].filter(
    (element) => element.matches(selector),
  );
}

const watcher = new MutationObserver((records) => {
  for (const record of records)
    for (const node of Array.from(record.addedNodes)) if (node instanceof Element) define(within(node));
  if (requested.size === Object.keys(PAYKIT_ELEMENTS).length) watcher.disconnect();
});

/**
 * Defines the Paykit elements found in `root` now and whenever they are added to it later. The document is
 * watched from the start; a shadow root (a component of the page's own) has to be named.
 */
export function observe(root: Document | DocumentFragment | Element): void {
  observed.add(root);
  define(within(root));
  if (requested.size < Object.keys(PAYKIT_ELEMENTS).length) watcher.observe(root, { childList: true, subtree: true });
}

observe(document);
// Back online: the elements whose module failed (the only ones not requested) try again.
addEventListener('online', () => observed.forEach((root) => define(within(root))));
