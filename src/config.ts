import { WidgetError } from './shared/errors.ts';

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

/** An element lacks its public key or the service's address, or was given one that is not: code `config`. */
export class PaykitConfigError extends WidgetError {
  override name = 'PaykitConfigError';
  constructor(message: string) {
    super(message, 'config');
  }
}

const PAGE_CONFIG = Symbol.for('paykit.config');

/**
 * The page-wide settings: one record per page, kept on `globalThis`, so that every copy of Paykit on a page (the
 * script tag's and the npm package's) reads and writes the same one, whichever of them defined the elements.
 */
export function pageConfig(): PaykitConfig {
  return ((globalThis as { [PAGE_CONFIG]?: PaykitConfig })[PAGE_CONFIG] ??= {});
}

/** The origin of an absolute http(s) URL; throws PaykitConfigError saying what to give instead. */
function serviceOrigin(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (/^https?:$/.test(url.protocol)) return url.origin;
  } catch {
    // Not a URL: said below.
  }
  throw new PaykitConfigError(`Paykit: baseUrl must be an absolute URL and must use https, not "${baseUrl}".`);
}

/**
 * Sets the public key and service origin for every element on the page. Calling it again merges:
 * the script tag and an npm import may both configure one page.
 */
export function configure(options: PaykitConfig): void {
  const baseUrl = options.baseUrl && serviceOrigin(options.baseUrl);
  const config = pageConfig();
  if (options.publicKey) config.publicKey = options.publicKey.trim();
  if (baseUrl) config.baseUrl = baseUrl;
}

/** The page-wide settings, for inspection. */
export function currentConfig(): Readonly<PaykitConfig> {
  return { ...pageConfig() };
}

/** The service origin alone: an element's own `base-url` wins over configure() and the script tag. */
export function resolveBaseUrl(own?: string | null): string {
  const baseUrl = own?.trim() ? serviceOrigin(own) : pageConfig().baseUrl;
  if (!baseUrl) throw new PaykitConfigError('Paykit: no service address: set base-url or call configure({ baseUrl }).');
  return baseUrl;
}

/** An element's own `public-key` and `base-url` win over `configure()` and the script tag. */
export function resolveConfig(own: PaykitConfig = {}): ResolvedConfig {
  const publicKey = own.publicKey?.trim() || pageConfig().publicKey;
  if (!publicKey)
    throw new PaykitConfigError(
      'Paykit: no public key: set public-key, data-public-key on the script tag, or call configure({ publicKey }).',
    );
  if (!/^pk_[\w-]+$/.test(publicKey)) throw new PaykitConfigError(`Paykit: "${publicKey}" is not a public key (pk_…).`);
  return { publicKey, baseUrl: resolveBaseUrl(own.baseUrl) };
}

/** Forgets the page-wide settings; for tests. */
export function resetConfig(): void {
  const config = pageConfig();
  delete config.publicKey;
  delete config.baseUrl;
}
