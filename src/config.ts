/** Where the elements find their merchant public key and the payment service. */
export interface PaykitConfig {
  /** The merchant's public key, `pk_…`. */
  publicKey?: string | undefined;
  /** The service's origin, e.g. `https://pay.example.com`; `/api/v1` is added by the elements. */
  baseUrl?: string | undefined;
}

export interface ResolvedConfig {
  publicKey: string;
  baseUrl: string;
}

export class PaykitConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaykitConfigError';
  }
}

let pageConfig: PaykitConfig = {};

function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new PaykitConfigError(`Paykit: baseUrl must be an absolute URL such as https://pay.example.com, not "${baseUrl}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new PaykitConfigError('Paykit: baseUrl must use https (or http on localhost).');
  return url.origin;
}

/**
 * Sets the public key and service origin for every element on the page. Calling it again merges:
 * the script tag and an npm import may both configure one page.
 */
export function configure(options: PaykitConfig): void {
  const next: PaykitConfig = { ...pageConfig };
  if (options.publicKey) next.publicKey = options.publicKey.trim();
  if (options.baseUrl) next.baseUrl = normalizeBaseUrl(options.baseUrl);
  pageConfig = next;
}

/** The page-wide settings, for inspection. */
export function currentConfig(): Readonly<PaykitConfig> {
  return pageConfig;
}

/** An element's own `public-key` and `base-url` win over `configure()` and the script tag. */
export function resolveConfig(own: PaykitConfig = {}): ResolvedConfig {
  const publicKey = own.publicKey?.trim() || pageConfig.publicKey;
  const baseUrl = own.baseUrl ? normalizeBaseUrl(own.baseUrl) : pageConfig.baseUrl;
  if (!publicKey) {
    throw new PaykitConfigError('Paykit: no public key. Add data-public-key to the script tag, call configure({ publicKey }), or set public-key on the element.');
  }
  if (!/^pk_[\w-]+$/.test(publicKey)) throw new PaykitConfigError(`Paykit: "${publicKey}" is not a public key (pk_…). Never put a merchant key or secret in a page.`);
  if (!baseUrl) throw new PaykitConfigError('Paykit: no service address. Load the script tag from the service, or call configure({ baseUrl }).');
  return { publicKey, baseUrl };
}

/** Forgets the page-wide settings; for tests. */
export function resetConfig(): void {
  pageConfig = {};
}
