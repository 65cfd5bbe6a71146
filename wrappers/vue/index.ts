/**
 * `paykit/vue`: Vue 3 components over the Paykit custom elements. Props are the elements' properties (set as DOM
 * properties, never stringified into attributes); each element event is re-emitted under its camelCase name
 * (`@pay-success` in a template, `onPaySuccess` in a render function) with the element's typed `CustomEvent`.
 * Importing this module also registers the elements (when there is a DOM), exactly like `import 'paykit'`.
 *
 * For the bare tags (`<pay-button>` in a template) see ./global-components.ts and docs/adapters.md.
 */
import { defineComponent, h, type PropType } from 'vue';
import type {
  PayButtonStringKey, PaykitEventMap, PayMode, RequestPaymentButtonStringKey, TransactionsTableStringKey,
} from '../../src/index.ts';
import '../../src/index.ts';

export { configure } from '../../src/index.ts';
export type {
  PaykitConfig, PayMode, PaySuccessDetail, PaykitErrorDetail, RequestSentDetail, TransactionsLoadDetail, PaykitEventMap,
} from '../../src/index.ts';
export type {
  PayButton as PayButtonElement, RequestPaymentButton as RequestPaymentButtonElement, TransactionsTable as TransactionsTableElement,
} from '../../src/index.ts';

/** Emit validators: every event is passed on as the element fired it. */
const event = <K extends keyof PaykitEventMap>() => (_event: PaykitEventMap[K]) => true;

/**
 * The element's props as DOM properties: the `.` prefix makes Vue set `el.orderId`, never an `orderId` attribute,
 * also before the element is upgraded. Unset props are left out, so the element keeps its own defaults.
 */
function asProperties(props: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) if (value !== undefined) out[`.${key}`] = value;
  return out;
}

const shared = {
  /** BCP 47 locale for amounts (and dates); default the document's language, else en-US. */
  locale: String,
  /** The merchant's public key; overrides the script tag and configure(). */
  publicKey: String,
  /** The payment service's origin; overrides the script tag and configure(). */
  baseUrl: String,
};

/** `<pay-button>`: creates a pay link for `amount` and opens the hosted pay page. */
export const PayButton = defineComponent({
  name: 'PayButton',
  props: {
    ...shared,
    /** Decimal text in US dollars, e.g. "10.00". */
    amount: String,
    /** The merchant's order reference. */
    orderId: String,
    /** What the payment is for. */
    description: String,
    /** How the pay page opens: `dialog` (default), `popup` or `redirect`. */
    mode: String as PropType<PayMode>,
    /** Shows the pay link as a QR code once it is created. */
    showQr: Boolean,
    /** The button's text. */
    label: String,
    /** Milliseconds between checks of the pay link while the payment window is open. */
    pollInterval: Number,
    /** Replacements for any visible text, by key. */
    strings: Object as PropType<Partial<Record<PayButtonStringKey, string>>>,
  },
  emits: {
    paySuccess: event<'pay-success'>(),
    payError: event<'pay-error'>(),
    payCancel: event<'pay-cancel'>(),
  },
  setup(props, { emit }) {
    return () =>
      h('pay-button', {
        ...asProperties(props),
        onPaySuccess: (e: PaykitEventMap['pay-success']) => emit('paySuccess', e),
        onPayError: (e: PaykitEventMap['pay-error']) => emit('payError', e),
        onPayCancel: (e: PaykitEventMap['pay-cancel']) => emit('payCancel', e),
      });
  },
});

/** `<request-payment-button>`: texts the payer a pay link. */
export const RequestPaymentButton = defineComponent({
  name: 'RequestPaymentButton',
  props: {
    ...shared,
    /** Decimal text in US dollars, e.g. "10.00". */
    amount: String,
    /** The payer's mobile number. */
    recipientPhone: String,
    /** The merchant's order reference. */
    orderId: String,
    /** The button's text. */
    label: String,
    /** Replacements for any visible text, by key. */
    strings: Object as PropType<Partial<Record<RequestPaymentButtonStringKey, string>>>,
  },
  emits: {
    requestSent: event<'request-sent'>(),
    requestError: event<'request-error'>(),
  },
  setup(props, { emit }) {
    return () =>
      h('request-payment-button', {
        ...asProperties(props),
        onRequestSent: (e: PaykitEventMap['request-sent']) => emit('requestSent', e),
        onRequestError: (e: PaykitEventMap['request-error']) => emit('requestError', e),
      });
  },
});

/** `<transactions-table>`: the merchant's transactions, read with a session token. */
export const TransactionsTable = defineComponent({
  name: 'TransactionsTable',
  props: {
    ...shared,
    /** The read-only session token minted by the merchant's server. */
    sessionToken: String,
    /** Rows per page, 1–100. */
    pageSize: Number,
    /** Asks the merchant's server for a new session token (when there is none, or once after a 401). */
    fetchSessionToken: Function as PropType<() => Promise<string>>,
    /** Replacements for any visible text, by key. */
    strings: Object as PropType<Partial<Record<TransactionsTableStringKey, string>>>,
  },
  emits: {
    transactionsLoad: event<'transactions-load'>(),
    transactionsError: event<'transactions-error'>(),
  },
  setup(props, { emit }) {
    return () =>
      h('transactions-table', {
        ...asProperties(props),
        onTransactionsLoad: (e: PaykitEventMap['transactions-load']) => emit('transactionsLoad', e),
        onTransactionsError: (e: PaykitEventMap['transactions-error']) => emit('transactionsError', e),
      });
  },
});
