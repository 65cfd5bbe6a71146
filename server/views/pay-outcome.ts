import type { PaymentMethod } from '../domain/pricing.ts';
import { toMajorNumber } from '../domain/money.ts';
import { LINK_PROBLEMS, payPath } from '../domain/pay-links.ts';
import { html, raw, type Html } from './html.ts';
import type { PageLocale } from './i18n/language.ts';
import { paymentMessage } from './i18n/service-messages.ts';
import { fill, fillHtml } from './i18n/template.ts';
import { renderPage, type Brand, type Page } from './layout.ts';
import { formatUsd, orderRow, totalFor, type PayContext } from './pay-summary.ts';
import { scriptJson } from './script-json.ts';

/** What the opener (the merchant's page that opened this one) is told, as the `pay-button` element expects it. */
interface OpenerMessage {
  type: 'paykit:payment';
  status: 'approved' | 'pending' | 'declined';
  transaction_id: string | null;
  order_id: string;
  amount: number;
  message?: string;
}

/**
 * Tells the opener how the payment ended, addressed to the one origin it named, never '*'. The CSP allows
 * this script by its nonce; with scripts off the page still says everything.
 */
function openerScript(
  context: PayContext,
  nonce: string | undefined,
  message: Omit<OpenerMessage, 'type' | 'order_id'>,
): Html {
  if (!context.origin || !nonce) return html``;
  const data: OpenerMessage = { type: 'paykit:payment', ...message, order_id: context.request.order_id };
  return html`<script nonce="${nonce}">${raw(`(window.opener || window.parent).postMessage(${scriptJson(data)}, ${scriptJson(context.origin)});`)}</script>`;
}

/**
 * In the pay button's dialog, Escape pressed inside this page's frame closes the dialog, as it does outside it: the
 * key never reaches the merchant's page, so the page asks it to (`paykit:close`, to the one origin it named).
 */
export function escapeClosesDialog(context: PayContext, nonce: string | undefined): Html {
  if (!context.origin || !nonce) return html``;
  const data = { type: 'paykit:close', order_id: context.request.order_id };
  return html`<script nonce="${nonce}">${raw(
    `addEventListener('keydown', (e) => { if (e.key === 'Escape' && window.parent !== window) window.parent.postMessage(${scriptJson(data)}, ${scriptJson(context.origin)}); });`,
  )}</script>`;
}

function receipt(context: PayContext, amount: number, transactionId: string | undefined): Html {
  const texts = context.lang.texts.summary;
  return html`<dl>
<dt>${texts.merchant}</dt><dd>${context.merchantName}</dd>
${orderRow(context)}
<dt>${texts.amount}</dt><dd>${formatUsd(amount, context.lang.locale)}</dd>
${transactionId && html`<dt>${texts.transaction}</dt><dd><code>${transactionId}</code></dd>`}
</dl>`;
}

export function approvedPage(
  context: PayContext,
  outcome: { transactionId: string; kind: 'sale' | 'preauth' },
  nonce?: string,
): Page {
  const texts = context.lang.texts.outcome;
  const amount = totalFor(context.request, 'card');
  const values = { amount: formatUsd(amount, context.lang.locale), merchant: context.merchantName };
  const preauth = outcome.kind === 'preauth';
  return renderPage({
    title: preauth ? texts.authorizedTitle : texts.approvedTitle,
    language: context.lang.language,
    brand: context.brand,
    body: html`<p>${fill(preauth ? texts.held : texts.paid, values)}</p>
${receipt(context, amount, outcome.transactionId)}
<p>${texts.keepNumber}</p>
${openerScript(context, nonce, { status: 'approved', transaction_id: outcome.transactionId, amount: toMajorNumber(amount) })}`,
  });
}

export function pendingPage(context: PayContext, transactionId: string, nonce?: string): Page {
  const texts = context.lang.texts.outcome;
  const amount = totalFor(context.request, 'ach');
  return renderPage({
    title: texts.pendingTitle,
    language: context.lang.language,
    brand: context.brand,
    body: html`<p>${fill(texts.pending, { merchant: context.merchantName })}</p>
${receipt(context, amount, transactionId)}
<p>${texts.closePage}</p>
${openerScript(context, nonce, { status: 'pending', transaction_id: transactionId, amount: toMajorNumber(amount) })}`,
  });
}

/**
 * A decline, told to the opener; the page itself is the pay form again (402), keeping what the shopper typed
 * except the card number and the codes, with the bank's answer and what to do next.
 */
export function declineReport(
  context: PayContext,
  method: PaymentMethod,
  serviceMessage: string,
  nonce?: string,
): Html {
  const message = paymentMessage(serviceMessage, context.lang.texts);
  return openerScript(context, nonce, {
    status: 'declined',
    transaction_id: null,
    amount: toMajorNumber(totalFor(context.request, method)),
    message,
  });
}

/**
 * The sandbox's simulated 3-D Secure step: the bank's page, reduced to its answer. It carries the name on the card
 * and the expiry (never the number or the code), so that a failed step's form has them again.
 */
export function challengePage(
  context: PayContext,
  attemptToken: string,
  kept: { card_name?: string | undefined; exp?: string | undefined; receipt_email?: string | undefined },
  nonce?: string,
): Page {
  const texts = context.lang.texts.outcome;
  const amount = html`<strong>${formatUsd(totalFor(context.request, 'card'), context.lang.locale)}</strong>`;
  return renderPage({
    title: texts.challengeTitle,
    language: context.lang.language,
    brand: context.brand,
    body: html`<p>${fillHtml(texts.challenge, { amount, merchant: context.merchantName })}</p>
${context.sandbox && html`<p class="pay-note">${texts.challengeSandbox}</p>`}
<form method="post" action="${payPath(context.token)}/3ds">
<input type="hidden" name="attempt" value="${attemptToken}">
${kept.card_name && html`<input type="hidden" name="card_name" value="${kept.card_name}">`}${kept.exp && html`<input type="hidden" name="exp" value="${kept.exp}">`}${kept.receipt_email && html`<input type="hidden" name="receipt_email" value="${kept.receipt_email}">`}
${context.origin && html`<input type="hidden" name="origin" value="${context.origin}">`}
${context.lang.asked && html`<input type="hidden" name="locale" value="${context.lang.asked}">`}
<div class="pay-actions">
<button type="submit" name="result" value="pass">${texts.pass}</button>
<button type="submit" name="result" value="fail" class="pay-secondary">${texts.fail}</button>
</div>
</form>
${escapeClosesDialog(context, nonce)}`,
  });
}

/** Why a link shows no form: 404 unknown, 410 paid or expired. */
export function payLinkProblemPage(problem: keyof typeof LINK_PROBLEMS, lang: PageLocale, brand?: Brand): Page {
  const texts = lang.texts.outcome;
  const { status, title, advice } = {
    unknown: { status: 404, title: texts.unknownTitle, advice: texts.unknownAdvice },
    paid: { status: 410, title: texts.paidTitle, advice: texts.paidAdvice },
    expired: { status: 410, title: texts.expiredTitle, advice: texts.expiredAdvice },
  }[problem];
  return renderPage({
    title,
    status,
    language: lang.language,
    brand,
    body: html`<p>${lang.texts.linkProblems[problem]}</p><p>${advice}</p>`,
  });
}
