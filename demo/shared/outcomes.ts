/** The storefronts' log of what the widgets reported through their events. */

export type Outcome = { text: string; kind: 'ok' | 'error' };

/** Turns a widget event into a line for a person, or undefined for events the log does not show. */
export function describeWidgetEvent(type: string, detail: Record<string, unknown>): Outcome | undefined {
  switch (type) {
    case 'pay-success':
      return { text: `Paid $${detail.amount}: transaction ${detail.transaction_id}`, kind: 'ok' };
    case 'pay-pending':
      return {
        text: `Bank payment of $${detail.amount} submitted: transaction ${detail.transaction_id}. Not paid until the bank confirms it; do not ship yet.`,
        kind: 'ok',
      };
    case 'pay-error':
      return { text: `Payment failed: ${detail.message}`, kind: 'error' };
    case 'pay-cancel':
      return { text: 'The shopper closed the payment without paying.', kind: 'error' };
    case 'request-sent':
      return { text: `Text sent with the pay link ${detail.pay_link}`, kind: 'ok' };
    case 'request-error':
      return { text: `Request not sent: ${detail.message}`, kind: 'error' };
    default:
      return undefined;
  }
}

const WIDGET_EVENTS = [
  'pay-success',
  'pay-pending',
  'pay-error',
  'pay-cancel',
  'request-sent',
  'request-error',
] as const;

export function reportWidgetEvents(source: EventTarget, log: HTMLElement): void {
  let first = true;
  for (const type of WIDGET_EVENTS) {
    source.addEventListener(type, (event) => {
      const outcome = describeWidgetEvent(type, (event as CustomEvent<Record<string, unknown>>).detail ?? {});
      if (!outcome) return;
      if (first) log.replaceChildren();
      first = false;
      const line = document.createElement('p');
      line.className = outcome.kind;
      line.textContent = outcome.text;
      log.prepend(line);
    });
  }
}
