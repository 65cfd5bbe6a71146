import type { Config } from '../platform/config.ts';

/** The resources of the reference, in reading order: one section each. */
export const TAGS = [
  {
    name: 'Merchant onboarding',
    description:
      'Sign merchants up (through the API or a hosted form), follow their review, and list them. Every other call names a merchant by the `merchant_key` its onboarding returned.',
  },
  {
    name: 'Customers',
    description:
      "Store a merchant's customers with a card on file, read them back, and charge them without asking again.",
  },
  {
    name: 'Payment collection',
    description:
      'Ask a customer to pay: a pay link sent by text message or e-mail, or a QR code link for a counter or an invoice.',
  },
  {
    name: 'Transactions',
    description:
      'Read sales, refunds, voids and ACH returns; refund a completed sale in part or in full, or void it before it settles.',
  },
  {
    name: 'Preauthorizations',
    description:
      'Holds on a card: read them, change the amount held, capture some or all of it as a sale, or release it.',
  },
  {
    name: 'Payouts',
    description:
      "Where a merchant's money goes after the sale: its balance (available and pending), its payouts to its bank account on a schedule, the ledger entries each payout swept (they add up to its amount), their CSV, the schedule and the bank account.",
  },
  {
    name: 'Disputes',
    description:
      "Chargebacks of card sales: read them, answer with evidence (text and PDF, PNG or JPEG files), submit it or accept. Opening one withdraws its amount and a 15.00 fee from the merchant's balance; winning gives both back.",
  },
  {
    name: 'Webhooks',
    description:
      'Where Paykit posts every event (signed with Standard Webhooks), the signing secret, and the delivery log with resends.',
  },
  {
    name: 'Widgets',
    description:
      "What the `<pay-button>`, `<request-payment-button>` and `<transactions-table>` elements call (with the merchant's public key or a session token), and what the merchant's server sets up for them.",
  },
  {
    name: 'Branding',
    description:
      "The platform's name, colour and logo on its merchants' hosted pages (pay page, receipt, onboarding form); a merchant's own logo and colour (PUT /widgets/) win on its pages.",
  },
  {
    name: 'Sandbox',
    description:
      'Only in the sandbox: pay a link with a test card, move the clock, settle, read the messages that would have been sent, and decide ACH payments.',
  },
];

/** The OpenAPI document's frame; @fastify/swagger adds every route's schemas to it. */
export function openApiDocument(config: Config) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Paykit payment service',
      version: '1.0.0',
      description:
        'Onboard merchants, store customers, ask customers to pay, authorize, capture, refund and void, and hear about ' +
        'it through signed webhooks.\n\n' +
        'Partner calls use HTTP Basic authentication: your client id and secret key (the sandbox portal at `/portal` makes a pair). ' +
        "The widget calls use the merchant's public key in the path, from a page the merchant allowed, or a widget session token.\n\n" +
        'Every answer is JSON. A refusal is `{ "result": false, "message": "…", "code": "…" }` with a 4xx status and changes ' +
        'nothing; `code` is stable, `message` says what to send instead. Amounts are decimal text ("25.00").\n\n' +
        'A POST may carry an `Idempotency-Key`: the same key with the same body within 24 hours gets the first answer again, ' +
        'with `Idempotent-Replayed: true`, and no second effect.',
    },
    servers: [{ url: `${config.publicUrl}/api/v1`, description: config.environment }],
    tags: TAGS,
    components: {
      securitySchemes: {
        basicAuth: {
          type: 'http' as const,
          scheme: 'basic',
          description: 'Client id as the user name, secret key as the password.',
        },
        widgetSession: {
          type: 'http' as const,
          scheme: 'bearer',
          description:
            "A widget session token (`POST /widgets/sessions`), valid 15 minutes, that reads one merchant's transactions (and payouts, when granted).",
        },
      },
    },
    security: [{ basicAuth: [] }],
  };
}
