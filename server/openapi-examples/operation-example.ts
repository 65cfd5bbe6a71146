/** One operation's example: what goes in, what comes back, and the same call made with paykit/client. */
export interface OperationExample {
  /** Path parameters by name, e.g. { customerId: '…' }. */
  params?: Record<string, string>;
  /** Query-string fields (GET operations). */
  query?: Record<string, string | number | boolean>;
  /** The JSON request body (operations with a body). */
  body?: Record<string, unknown>;
  /** The 200 answer exactly as the service sends it: its JSON, or the text of a CSV export. */
  answer: unknown;
  /**
   * The same call as paykit/client TypeScript statements, where `paykit` is a PaykitClient already made
   * (`const paykit = new PaykitClient({ clientId, secretKey })`, don't repeat that) — e.g.
   * "const customer = await paykit.customers.add({ merchant_key: 'mk_…', ... });".
   * For the widget calls made by public key (/widgets/{public_key}/...), which partners don't call from a server,
   * the HTML of the element that makes the call instead (e.g. `<pay-button public-key="pk_…" amount="25.00"></pay-button>`),
   * and set `clientLang: 'html'`.
   */
  client: string;
  clientLang?: 'typescript' | 'html';
}
