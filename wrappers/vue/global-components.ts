/**
 * Template typings for the bare tags `<pay-button>`, `<request-payment-button>` and `<transactions-table>` in Vue
 * templates: props and `@pay-success`-style events type-check under vue-tsc / Volar. Kept apart from
 * `paykit/vue`, as Vue's guide asks of custom element libraries, so that only a project that wants the module
 * augmentation gets it:
 *
 *     import type {} from 'paykit/vue/global-components';
 *
 * (in any .ts or .vue file of the project, e.g. env.d.ts). The elements must also be registered at run time
 * (`import 'paykit'`, or the script tag) and Vue told they are custom elements: see docs/adapters.md.
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { PayButton, PaykitEventMap, RequestPaymentButton, TransactionsTable } from '../../src/index.ts';

type EventsOf<K extends keyof PaykitEventMap> = { [N in K]: PaykitEventMap[N] };

/**
 * The shape Vue's language tools read from a global component: `$props` for the template's attributes and
 * `$emit` for its events. Both exist only for type checking; an element reference has neither.
 */
export type DefineCustomElement<
  El extends HTMLElement,
  Events extends Record<string, Event>,
  Props extends keyof El,
> = new () => El & {
  /** @deprecated Template type checking only: not a property of the element. */
  $props: HTMLAttributes & Partial<Pick<El, Props>> & PublicProps;
  /** @deprecated Template type checking only: not a method of the element. */
  $emit: EmitFn<{ [K in keyof Events]: (event: Events[K]) => void }>;
};

type Shared = 'locale' | 'publicKey' | 'baseUrl' | 'strings';

declare module 'vue' {
  interface GlobalComponents {
    'pay-button': DefineCustomElement<
      PayButton,
      EventsOf<'pay-success' | 'pay-error' | 'pay-cancel'>,
      Shared | 'amount' | 'orderId' | 'description' | 'mode' | 'showQr' | 'label' | 'pollInterval'
    >;
    'request-payment-button': DefineCustomElement<
      RequestPaymentButton,
      EventsOf<'request-sent' | 'request-error'>,
      Shared | 'amount' | 'recipientPhone' | 'orderId' | 'label'
    >;
    'transactions-table': DefineCustomElement<
      TransactionsTable,
      EventsOf<'transactions-load' | 'transactions-error'>,
      Shared | 'sessionToken' | 'pageSize' | 'fetchSessionToken'
    >;
  }
}
