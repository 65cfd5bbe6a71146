/**
 * What the console's lazily imported modules (the details and actions, the payouts) use of `<transactions-table>`:
 * a module of types alone, so that they need not import each other to name it.
 */
import type { html as litHtml } from 'lit-element';
import type { ApiLib } from '../../widget-console-api.ts';
import type { ConsoleFeatures, TransactionItem } from '../../widget-api.ts';
import type * as Format from '../../shared/format.ts';
import type * as Dates from '../../shared/dates.ts';

/**
 * What these modules would otherwise import from the modules every element shares: handed over by the table, so the
 * shared chunk stays one file (see src/widget-console-api.ts).
 */
export type ConsoleLib = ApiLib &
  Pick<typeof Format, 'formatMoney' | 'interpolate'> &
  Pick<typeof Dates, 'formatDateTime'> & { html: typeof litHtml };

/** What the console needs of its table. */
export interface ConsoleHost {
  readonly lib: ConsoleLib;
  /** The table; its `t` gives its texts ("Loading the details…" as `loadingDetails`), in the merchant's words. */
  readonly host: HTMLElement & { t(key: 'loadingDetails'): string; updateComplete: Promise<unknown> };
  readonly locale: string;
  readonly features: Partial<ConsoleFeatures>;
  /** The session token, renewed once through fetchSessionToken when `call` is refused with 401. */
  withToken<T>(call: (baseUrl: string, token: string) => Promise<T>): Promise<T>;
  /** `strings`' or the language's text for `key`, if any. */
  ownText(key: string): string | undefined;
  /** The row changed: replace it where it is, and render. */
  changed(item: TransactionItem): void;
  update(): void;
}
