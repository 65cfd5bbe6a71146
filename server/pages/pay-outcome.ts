import type { PaymentMethod } from '../domain/pricing.ts';
import { toMajorNumber } from '../domain/money.ts';
import { LINK_PROBLEMS, payPath } from '../domain/pay-links.ts';
import { html, raw, type Html } from './html.ts';
import { renderPage, type Page } from './layout.ts';
import { formatUsd, totalFor, type PayContext } from './pay-summary.ts';

/** What the opener (the merchant's page that opened this one) is told, as the `pay-button` element expects it. */
interface OpenerMessage {
  type: 'paykit:payment';
  status: 'approved' | 'pending' | 'declined';
  transaction_id: string | null;
  order_id: string;
  amount: number;
  message?: string;
}

/** JSON that cannot end the script element it sits in. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Tells the opener how the payment ended, addressed to the one origin it named, never '*'. The CSP allows
 * this script by its nonce; with scripts off the page still says everything.
 */
function openerScript(context: PayContext, nonce: string | undefined, message: Omit<OpenerMessage, 'type' | 'order_id'>): Html {
  if (!context.origin || !nonce) return html``;
  const data: OpenerMessage = { type: 'paykit:payment', ...message, order_id: context.request.order_id };
  return html`<script nonce="${nonce}">${raw(`(window.opener || window.parent).postMessage(${scriptJson(data)}, ${scriptJson(context.origin)});`)}</script>`;
}

/** The pay page again, keeping the opener's origin. */
export function payPageHref(context: Pick<PayContext, 'token' | 'origin'>): string {
  return `${payPath(context.token)}${context.origin ? `?origin=${encodeURIComponent(context.origin)}` : ''}`;
}

function receipt(context: PayContext, amount: number, transactionId: string | undefined): Html {
  return html`<dl>
<dt>Merchant</dt><dd>${context.merchantName}</dd>
<dt>Order</dt><dd>${context.request.order_id}</dd>
<dt>Amount</dt><dd>${formatUsd(amount)}</dd>
${transactionId && html`<dt>Transaction</dt><dd><code>${transactionId}</code></dd>`}
</dl>`;
}

export function approvedPage(context: PayContext, outcome: { transactionId: string; kind: 'sale' | 'preauth' }, nonce?: string): Page {
  const amount = totalFor(context.request, 'card');
  const preauth = outcome.kind === 'preauth';
  const text = preauth
    ? html`<p>${formatUsd(amount)} is held on your card for ${context.merchantName}. You are charged only when ${context.merchantName} takes the payment.</p>`
    : html`<p>Thank you: you paid ${formatUsd(amount)} to ${context.merchantName}.</p>`;
  return renderPage({
    title: preauth ? 'Card authorized' : 'Payment successful',
    body: html`${text}
${receipt(context, amount, outcome.transactionId)}
<p>Keep the transaction number for your records. You can close this page.</p>
${openerScript(context, nonce, { status: 'approved', transaction_id: outcome.transactionId, amount: toMajorNumber(amount) })}`,
  });
}

export function pendingPage(context: PayContext, transactionId: string, nonce?: string): Page {
  const amount = totalFor(context.request, 'ach');
  return renderPage({
    title: 'Payment submitted',
    body: html`<p>Payment submitted: bank payments take a few days to clear. ${context.merchantName} sees the payment once your bank confirms it.</p>
${receipt(context, amount, transactionId)}
<p>You can close this page.</p>
${openerScript(context, nonce, { status: 'pending', transaction_id: transactionId, amount: toMajorNumber(amount) })}`,
  });
}

/** 402: nothing was charged, and the link stays open for another try. */
export function declinedPage(context: PayContext, method: PaymentMethod, message: string, nonce?: string): Page {
  const amount = totalFor(context.request, method);
  return renderPage({
    title: 'Payment declined',
    status: 402,
    body: html`<div class="summary" role="alert"><p><strong>${message}</strong></p></div>
<p>Nothing was charged. You can try again with another card${context.request.allow_ach === 1 && ' or pay from a bank account'}.</p>
${receipt(context, amount, undefined)}
<p class="pay-actions"><a href="${payPageHref(context)}">Try again</a></p>
${openerScript(context, nonce, { status: 'declined', transaction_id: null, amount: toMajorNumber(amount), message })}`,
  });
}

/** The sandbox's simulated 3-D Secure step: the bank's page, reduced to its answer. */
export function challengePage(context: PayContext, attemptToken: string): Page {
  return renderPage({
    title: 'Confirm this payment',
    body: html`<p>Your bank asks you to confirm this payment of <strong>${formatUsd(totalFor(context.request, 'card'))}</strong> to ${context.merchantName} (3-D Secure).</p>
${context.sandbox && html`<p class="pay-note">Sandbox: this step stands in for your bank's check. Choose Pass to approve the payment or Fail to see it declined.</p>`}
<form method="post" action="${payPath(context.token)}/3ds">
<input type="hidden" name="attempt" value="${attemptToken}">
${context.origin && html`<input type="hidden" name="origin" value="${context.origin}">`}
<div class="pay-actions">
<button type="submit" name="result" value="pass">Pass</button>
<button type="submit" name="result" value="fail" class="pay-secondary">Fail</button>
</div>
</form>`,
  });
}

const PROBLEM_PAGES = {
  unknown: { status: 404, title: 'Pay link not found', advice: 'Check that you opened the whole link from your message, or ask the merchant for a new one.' },
  paid: { status: 410, title: 'Already paid', advice: 'There is nothing more to pay on this link. If you think this is wrong, contact the merchant.' },
  expired: { status: 410, title: 'Pay link expired', advice: 'Nothing was charged.' },
} as const;

/** Why a link shows no form: 404 unknown, 410 paid or expired. */
export function payLinkProblemPage(problem: keyof typeof LINK_PROBLEMS): Page {
  const { status, title, advice } = PROBLEM_PAGES[problem];
  return renderPage({ title, status, body: html`<p>${LINK_PROBLEMS[problem]}</p><p>${advice}</p>` });
}
