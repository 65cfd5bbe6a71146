import type { OperationExample } from './operation-example.ts';

/**
 * The sandbox story every example tells, so that the examples agree with one another: the partner's merchant
 * Juniper Coffee Co., its customer Ann Lee, her first sale (order-1042, paid through a pay link) and a hold.
 * The values were made by the service itself, on 10 March 2026 of its sandbox clock.
 */

/** The service's origin, as `npm run server` starts it and as paykit/client calls the sandbox by default. */
export const SERVICE = 'http://localhost:4010';
/** The merchant's GUID (what POST /approve-merchant takes). */
export const MERCHANT_ID = 'm_8099fdfa-bc3b-45cc-95fc-0e36e13e7389';
/** The merchant's API key, sent in the body of most calls. */
export const MERCHANT_KEY = 'mk_cgGY7faYyQ8DoKalzKSr0hLOQ49iGEyvg2XXPKlixcY';
/** The merchant's public key, for its widgets. */
export const PUBLIC_KEY = 'pk_dIdsLGsDd7pMgfy6cecwhcHMo5etn7hQ';
/** Ann Lee, a stored customer of the merchant. */
export const CUSTOMER_ID = 'c_16528218-1aff-4ef9-8298-6e6c194e2d24';
/** The pay link of order-1042 (POST /requests), its id, and the sale that paying it made. */
export const PAY_LINK = `${SERVICE}/pay/pl_019ab0c4d2e0UjGl5AYqKhqj6Gtj-A6zTG0Y8Kg6v5_cYVhIguT_1pA`;
export const LINK_ID = 'lnk_7524d32b-8928-41a2-9104-17667bfa3253';
export const SALE_ID = 'txn_636bacd0-677d-4241-9f0f-993499932cc7';
/** The preauthorization of order-1046: 150.00 authorized, raised to 175.00, then captured. */
export const HOLD_ID = 'txn_e78c942a-5e57-4f29-9f0b-f87c792f6576';
/** The partner's webhook endpoint, and the payment.success event of SALE_ID delivered to it. */
export const WEBHOOK_URL = 'https://api.partner.example/webhooks/paykit';
export const EVENT_ID = 'evt_d9548b50-b13c-484b-8656-bdb60e1e66a5';

/**
 * A code sample written indented in the source: the template's text without its first and last line breaks and
 * without the indentation its lines share.
 */
export function code(strings: TemplateStringsArray, ...values: string[]): string {
  const text = strings.reduce((joined, part, i) => joined + part + (i < values.length ? values[i] : ''), '');
  const lines = text
    .replace(/^[ \t]*\n/, '')
    .replace(/\n[ \t]*$/, '')
    .split('\n');
  const indent = Math.min(
    ...lines.filter((line) => line.trim() !== '').map((line) => line.length - line.trimStart().length),
  );
  return lines.map((line) => line.slice(indent)).join('\n');
}

/** A value as a TypeScript literal in the samples' style: bare identifier keys, single-quoted strings, two-space indents. */
function literal(value: unknown, indent = ''): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, indent)).join(', ')}]`;
  if (value === null || typeof value !== 'object') return String(value);
  const inner = `${indent}  `;
  const fields = Object.entries(value).map(
    ([name, field]) => `${inner}${/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`}: ${literal(field, inner)},`,
  );
  return `{\n${fields.join('\n')}\n${indent}}`;
}

/**
 * An example whose paykit/client sample passes the example's body as its one argument: `${call}({…});`, then the
 * lines of `after`, if any.
 */
export function callWithBody(
  example: Omit<OperationExample, 'client'> & { body: Record<string, unknown> },
  call: string,
  after = '',
): OperationExample {
  return { ...example, client: `${call}(${literal(example.body)});${after ? `\n${after}` : ''}` };
}
