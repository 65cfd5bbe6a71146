import type { PaymentMethod } from '../domain/pricing.ts';
import { payPath } from '../domain/pay-links.ts';
import { attributes, html, raw, type Html } from './html.ts';
import { fillHtml, fill } from './i18n/template.ts';
import { paymentMessage } from './i18n/service-messages.ts';
import { renderPage, type Page } from './layout.ts';
import { cardScript } from './pay-card-script.ts';
import { escapeClosesDialog } from './pay-outcome.ts';
import { amountBreakdown, formatUsd, requestDetails, totalFor, type PayContext } from './pay-summary.ts';

/**
 * What the customer typed that may be shown again. The card number, the security code and the bank account
 * number are never among them: a re-rendered form leaves those empty.
 */
export interface PayFormValues {
  card_name?: string | undefined;
  exp?: string | undefined;
  account_name?: string | undefined;
  routing_number?: string | undefined;
}

export interface PayFormProblem {
  method: PaymentMethod;
  /** As the service says it (English): the page says it in its own language. */
  message: string;
  /** The input it is about, when the page knows; else read from the service's message. */
  field?: string;
}

export interface PayFormState {
  values: PayFormValues;
  problem?: PayFormProblem | undefined;
  /** The status to answer with the problem: the service's own (400, or 409 for a used 3-D Secure step). */
  status?: number | undefined;
}

/** The input a refusal is about, read from the service's message; the method's first input when none fits. */
const FIELD_OF_MESSAGE: [RegExp, string][] = [
  [/card number|test card/i, 'card-number'],
  [/expiry|expired/i, 'card-exp'],
  [/security code/i, 'card-cvc'],
  [/routing/i, 'ach-routing'],
  [/account number/i, 'ach-account'],
];

export function fieldOf(problem: PayFormProblem): string {
  if (problem.field) return problem.field;
  const prefix = `${problem.method}-`;
  const found = FIELD_OF_MESSAGE.find(([pattern, id]) => id.startsWith(prefix) && pattern.test(problem.message));
  return found ? found[1] : problem.method === 'card' ? 'card-number' : 'ach-name';
}

interface InputSpec {
  id: string;
  name: string;
  label: string;
  hint?: string | undefined;
  optional?: boolean;
  /** Extra attributes: autocomplete, inputmode, maxlength. */
  extra: Record<string, string | number | boolean | undefined>;
  value: string;
  /** Shown inside the input, at its end (the card's brand). */
  inside?: Html;
}

function input(context: PayContext, spec: InputSpec, errorField: string | undefined, error: string | undefined): Html {
  const message = errorField === spec.id ? error : undefined;
  const described = [message && `${spec.id}-error`, spec.hint && `${spec.id}-hint`].filter(Boolean).join(' ');
  const control = html`<input type="text" id="${spec.id}" name="${spec.name}"${attributes({
    ...spec.extra, required: !spec.optional, 'aria-describedby': described || undefined, 'aria-invalid': message ? 'true' : undefined,
  })} value="${spec.value}">`;
  return html`<div class="field">
<label for="${spec.id}">${spec.label}${spec.optional && html` <span class="optional">${context.lang.texts.pay.optional}</span>`}</label>
${spec.hint && html`<p class="hint" id="${spec.id}-hint">${spec.hint}</p>`}${message && html`<p class="error" id="${spec.id}-error">${message}</p>`}${spec.inside ? html`<div class="pay-inside">${control}${spec.inside}</div>` : control}
</div>`;
}

/** The hidden fields every form of the page carries: the method, and what the next page must know (origin, language). */
function hidden(context: PayContext, method: PaymentMethod): Html {
  return html`<input type="hidden" name="method" value="${method}">${context.origin && html`<input type="hidden" name="origin" value="${context.origin}">`}${context.lang.asked && html`<input type="hidden" name="locale" value="${context.lang.asked}">`}`;
}

function payButton(context: PayContext, method: PaymentMethod): Html {
  const texts = context.lang.texts.pay;
  const total = formatUsd(totalFor(context.request, method), context.lang.locale);
  if (context.request.preauth) return html`<button type="submit">${fill(texts.authorize, { total })}</button>`;
  return html`<button type="submit">${fill(method === 'ach' ? texts.payFromBank : texts.payByCard, { total })}</button>`;
}

function cardForm(context: PayContext, state: PayFormState): Html {
  const texts = context.lang.texts.pay;
  const { values, problem } = state;
  const error = problem?.method === 'card' ? paymentMessage(problem.message, context.lang.texts) : undefined;
  const at = problem?.method === 'card' ? fieldOf(problem) : undefined;
  const again = problem?.method === 'card' ? `${texts.reenter} ` : '';
  const field = (spec: InputSpec) => input(context, spec, at, error);
  return html`<form method="post" action="${payPath(context.token)}" id="card-form">
<fieldset>
<legend>${texts.cardLegend}</legend>
${hidden(context, 'card')}
${field({ id: 'card-name', name: 'card_name', label: texts.cardName, optional: true, extra: { autocomplete: 'cc-name', maxlength: 100 }, value: values.card_name ?? '' })}
${field({
    id: 'card-number', name: 'card_number', label: texts.cardNumber, hint: `${again}${texts.cardNumberHint}`,
    extra: { autocomplete: 'cc-number', inputmode: 'numeric', maxlength: 23, spellcheck: 'false', autocorrect: 'off' }, value: '',
    inside: html`<span class="pay-brand" id="card-brand" aria-live="polite"></span>`,
  })}
<div class="pay-row">
${field({ id: 'card-exp', name: 'exp', label: texts.expiry, hint: texts.expiryHint, extra: { autocomplete: 'cc-exp', inputmode: 'numeric', maxlength: 9, placeholder: 'MM / YY' }, value: values.exp ?? '' })}
${field({ id: 'card-cvc', name: 'cvc', label: texts.cvc, hint: `${again}${texts.cvcHint}`, extra: { autocomplete: 'cc-csc', inputmode: 'numeric', maxlength: 4 }, value: '' })}
</div>
${payButton(context, 'card')}
</fieldset>
</form>`;
}

function achForm(context: PayContext, state: PayFormState): Html {
  const texts = context.lang.texts.pay;
  const { values, problem } = state;
  const error = problem?.method === 'ach' ? paymentMessage(problem.message, context.lang.texts) : undefined;
  const at = problem?.method === 'ach' ? fieldOf(problem) : undefined;
  const again = problem?.method === 'ach' ? `${texts.reenter} ` : '';
  const field = (spec: InputSpec) => input(context, spec, at, error);
  return html`<form method="post" action="${payPath(context.token)}" id="ach-form">
<fieldset>
<legend>${texts.achLegend}</legend>
${hidden(context, 'ach')}
<p class="hint">${texts.achHint}</p>
${field({ id: 'ach-name', name: 'account_name', label: texts.achName, extra: { autocomplete: 'name', maxlength: 100 }, value: values.account_name ?? '' })}
${field({ id: 'ach-routing', name: 'routing_number', label: texts.routing, hint: texts.routingHint, extra: { inputmode: 'numeric', maxlength: 9, autocomplete: 'off' }, value: values.routing_number ?? '' })}
${field({ id: 'ach-account', name: 'account_number', label: texts.account, hint: `${again}${texts.accountHint}`, extra: { inputmode: 'numeric', maxlength: 17, autocomplete: 'off' }, value: '' })}
${payButton(context, 'ach')}
</fieldset>
</form>`;
}

function errorSummary(context: PayContext, problem: PayFormProblem | undefined): Html {
  if (!problem) return html``;
  return html`<div class="summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">${context.lang.texts.pay.problemTitle}</h2>
<ul><li><a href="#${fieldOf(problem)}">${paymentMessage(problem.message, context.lang.texts)}</a></li></ul>
</div>`;
}

function testDetails(context: PayContext): Html {
  if (!context.sandbox) return html``;
  const texts = context.lang.texts.pay;
  const { allow_card: card, allow_ach: ach } = context.request;
  const code = (text: string) => html`<code>${text}</code>`;
  return html`<section class="pay-note" aria-labelledby="test-details-title">
<h2 id="test-details-title">${texts.sandboxTitle}</h2>
<p>${texts.sandboxNote}</p>
${card === 1 && html`<ul>
<li>${fillHtml(texts.testApproves, { card: code('4242 4242 4242 4242') })}</li>
<li>${fillHtml(texts.testDeclined, { card: code('4000 0000 0000 0002') })}</li>
<li>${fillHtml(texts.testNoFunds, { card: code('4000 0000 0000 9995') })}</li>
<li>${fillHtml(texts.testChallenge, { card: code('4000 0000 0000 3220') })}</li>
</ul>
<p>${texts.testAnyExpiry}</p>`}
${ach === 1 && html`<p>${fillHtml(texts.testAch, { routing: code('110000000') })}</p>`}
</section>`;
}

/**
 * The hosted pay page: what is due, then one form per way to pay; after a refusal the summary comes first. With
 * scripts on, the card form checks the number (Luhn), the expiry and the security code as they are typed, groups
 * the number and shows its brand (pay-card-script.ts); without, the service checks them on submit, as always.
 */
export function payPage(context: PayContext, state: PayFormState = { values: {} }, nonce?: string): Page {
  const { request, merchantName, lang } = context;
  const texts = lang.texts.pay;
  const preauth = request.preauth === 1
    ? html`<p class="warning">${fillHtml(texts.preauth, { held: html`<strong>${texts.held}</strong>`, merchant: merchantName })}</p>`
    : '';
  const body = html`${errorSummary(context, state.problem)}
${requestDetails(context)}
${amountBreakdown(context)}
${preauth}
${testDetails(context)}
${request.allow_card === 1 && cardForm(context, state)}
${request.allow_ach === 1 && achForm(context, state)}
${request.allow_card === 1 && nonce && html`<script nonce="${nonce}">${raw(cardScript(lang.texts))}</script>`}
${escapeClosesDialog(context, nonce)}`;
  return renderPage({ title: fill(texts.title, { merchant: merchantName }), body, status: state.problem ? (state.status ?? 400) : 200, language: lang.language });
}
