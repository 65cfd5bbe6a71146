/**
 * `/paykit.js`, the script tag: a small loader. It configures the page from its own tag (`data-public-key`, and
 * its own origin as the service), then defines each Paykit element the first time one appears in the document,
 * or in a shadow root it is told about with `observe()`, by importing that element's module on demand. The
 * element modules and the Lit chunk they share are content-hashed files under `/paykit/`, cached for a year.
 *
 *     <script type="module" src="https://pay.example.com/paykit.js" data-public-key="pk_…"></script>
 *     import { observe } from 'https://pay.example.com/paykit.js'; observe(this.shadowRoot);
 */
import { pageConfig } from '../config.ts';

/** Filled in by the build (server/script-tag/bundle.ts): each tag's module, then every file it imports. */
declare const PAYKIT_ELEMENTS: Record<string, string[]>;
/** Lit's hydration support, then the files it imports: loaded before Lit when an element was rendered on a server. */
declare const PAYKIT_HYDRATION: string[];
/** The texts of each language besides English, by primary subtag: fetched beside the elements on a page in that language. */
declare const PAYKIT_LANGUAGES: Record<string, string[]>;

const { href, origin } = new URL(import.meta.url);
const tag = Array.from(document.scripts).find((script) => script.src === href);
Object.assign(pageConfig(), { baseUrl: origin }, tag?.dataset.publicKey && { publicKey: tag.dataset.publicKey.trim() });

const selector = Object.keys(PAYKIT_ELEMENTS).join();
const requested = new Set<string>();
const fileUrl = (file: string) => new URL(`paykit/${file}`, import.meta.url).href;
/** Settled once Lit may be evaluated: after its hydration support, when the first elements found were server-rendered. */
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
    // Lit must hydrate it (keep its content) rather than render it again. Decided once: Lit is evaluated once.
    const hydrate = wanted.some((element) => element.shadowRoot);
    if (hydrate) preload(PAYKIT_HYDRATION);
    litReady = hydrate ? import(fileUrl(PAYKIT_HYDRATION[0]!)) : Promise.resolve();
    // A page in Spanish, French or German: its texts travel with the elements, not one round trip after them.
    preload(PAYKIT_LANGUAGES[document.documentElement.lang.split('-')[0]!.toLowerCase()] ?? []);
  }
  for (const { localName } of wanted) {
    const files = PAYKIT_ELEMENTS[localName]!;
    preload(files);
    void litReady.then(() => import(fileUrl(files[0]!)));
  }
}

/** The Paykit elements in `root`, itself included. */
function within(root: ParentNode): Element[] {
  return [...(root instanceof Element ? [root] : []), ...Array.from(root.querySelectorAll(selector))].filter((element) => element.matches(selector));
}

const watcher = new MutationObserver((records) => {
  for (const record of records) for (const node of Array.from(record.addedNodes)) if (node instanceof Element) define(within(node));
  if (requested.size === Object.keys(PAYKIT_ELEMENTS).length) watcher.disconnect();
});

/**
 * Defines the Paykit elements found in `root` now and whenever they are added to it later. The document is
 * watched from the start; a shadow root (a component of the page's own) has to be named.
 */
export function observe(root: Document | DocumentFragment | Element): void {
  define(within(root));
  if (requested.size < Object.keys(PAYKIT_ELEMENTS).length) watcher.observe(root, { childList: true, subtree: true });
}

observe(document);
