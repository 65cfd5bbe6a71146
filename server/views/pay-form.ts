import type { PaymentMethod } from '../domain/pricing.ts';
import { payPath } from '../domain/pay-links.ts';
import { attributes, html, raw, type Html } from './html.ts';
import { fillHtml, fill } from './i18n/template.ts';
import { paymentMessage } from './i18n/service-messages.ts';
import { renderPage, type Page } from './layout.ts';
import { cardScript } from './pay-card-script.ts';
import { escapeClosesDialog } from './pay-outcome.ts';
import {
  allowedMethods,
  amountBreakdown,
  formatUsd,
  requestDetails,
  totalFor,
  type PayContext,
} from './pay-summary.ts';

/**
 * What the customer typed that may be shown again. The card number, the security code and the bank account
 * number are never among them: a re-rendered form leaves those empty.
 */
export interface PayFormValues {
  card_name?: string | undefined;
  receipt_email?: string | undefined;
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
  /** The status to answer with the problem: the service's own (400, or 409 for a used 3-D Secure step, 402 declined). */
  status?: number | undefined;
  /** The bank declined the payment: the summary says so and what to do next; the form keeps what may be kept. */
  declined?: boolean | undefined;
  /** Markup the page adds after the form: the report of a decline to the opener. */
  after?: Html | undefined;
}

/** The input a refusal is about, read from the service's message; the method's first input when none fits. */
const FIELD_OF_MESSAGE: [RegExp, string][] = [
  [/card number|test card/i, 'card-number'],
  [/expiry|expired/i, 'card-exp'],
  [/security code/i, 'card-cvc'],
  [/routing/i, 'ach-routing'],
  [/account number/i, 'ach-account'],
];

function fieldOf(problem: PayFormProblem): string {
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
    ...spec.extra,
    required: !spec.optional,
    'aria-describedby': described || undefined,
    'aria-invalid': message ? 'true' : undefined,
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

/** An optional address for the receipt (issue 44), never required. */
function receiptEmailField(
  context: PayContext,
  method: PaymentMethod,
  values: PayFormValues,
  field: (spec: InputSpec) => Html,
): Html {
  const texts = context.lang.texts.pay;
  return field({
    id: `${method}-receipt-email`,
    name: 'receipt_email',
    label: texts.receiptEmail,
    hint: texts.receiptEmailHint,
    optional: true,
    extra: { type: 'email', autocomplete: 'email', maxlength: 254, spellcheck: 'false' },
    value: values.receipt_email ?? '',
  });
}

function cardForm(context: PayContext, state: PayFormState, chosen: PaymentMethod | undefined): Html {
  const texts = context.lang.texts.pay;
  const { values, problem } = state;
  const error = problem?.method === 'card' ? paymentMessage(problem.message, context.lang.texts) : undefined;
  const at = problem?.method === 'card' ? fieldOf(problem) : undefined;
  const again = problem?.method === 'card' ? `${texts.reenter} ` : '';
  const field = (spec: InputSpec) => input(context, spec, at, error);
  return html`<form method="post" action="${payPath(context.token)}" id="card-form" class="for-card">
<fieldset>
<legend${chosen && html` class="visually-hidden"`}>${texts.cardLegend}</legend>
${hidden(context, 'card')}
${field({
  id: 'card-number',
  name: 'card_number',
  label: texts.cardNumber,
  hint: `${again}${texts.cardNumberHint}`,
  extra: { autocomplete: 'cc-number', inputmode: 'numeric', maxlength: 23, spellcheck: 'false', autocorrect: 'off' },
  value: '',
  inside: html`<span class="pay-brand" id="card-brand" aria-live="polite"></span>`,
})}
<div class="pay-row">
${field({ id: 'card-exp', name: 'exp', label: texts.expiry, hint: texts.expiryHint, extra: { autocomplete: 'cc-exp', inputmode: 'numeric', maxlength: 9, placeholder: 'MM / YY' }, value: values.exp ?? '' })}
${field({ id: 'card-cvc', name: 'cvc', label: texts.cvc, hint: `${again}${texts.cvcHint}`, extra: { autocomplete: 'cc-csc', inputmode: 'numeric', maxlength: 4 }, value: '' })}
</div>
${field({ id: 'card-name', name: 'card_name', label: texts.cardName, optional: true, extra: { autocomplete: 'cc-name', maxlength: 100 }, value: values.card_name ?? '' })}
${receiptEmailField(context, 'card', values, field)}
${payButton(context, 'card')}
</fieldset>
</form>`;
}

function achForm(context: PayContext, state: PayFormState, chosen: PaymentMethod | undefined): Html {
  const texts = context.lang.texts.pay;
  const { values, problem } = state;
  const error = problem?.method === 'ach' ? paymentMessage(problem.message, context.lang.texts) : undefined;
  const at = problem?.method === 'ach' ? fieldOf(problem) : undefined;
  const again = problem?.method === 'ach' ? `${texts.reenter} ` : '';
  const field = (spec: InputSpec) => input(context, spec, at, error);
  return html`<form method="post" action="${payPath(context.token)}" id="ach-form" class="for-ach">
<fieldset>
<legend${chosen && html` class="visually-hidden"`}>${texts.achLegend}</legend>
${hidden(context, 'ach')}
<p class="hint">${texts.achHint}</p>
${field({ id: 'ach-name', name: 'account_name', label: texts.achName, extra: { autocomplete: 'name', maxlength: 100 }, value: values.account_name ?? '' })}
${field({ id: 'ach-routing', name: 'routing_number', label: texts.routing, hint: texts.routingHint, extra: { inputmode: 'numeric', maxlength: 9, autocomplete: 'off' }, value: values.routing_number ?? '' })}
${field({ id: 'ach-account', name: 'account_number', label: texts.account, hint: `${again}${texts.accountHint}`, extra: { inputmode: 'numeric', maxlength: 17, autocomplete: 'off' }, value: '' })}
${receiptEmailField(context, 'ach', values, field)}
${payButton(context, 'ach')}
</fieldset>
</form>`;
}

/**
 * What went wrong, first after the total, focused when the page opens so a screen reader reads it: after a
 * decline, that the bank declined, that nothing was charged and what to do next.
 */
function errorSummary(context: PayContext, state: PayFormState): Html {
  const { problem } = state;
  if (!problem) return html``;
  const { pay, outcome } = context.lang.texts;
  const message = paymentMessage(problem.message, context.lang.texts);
  const next =
    problem.method === 'ach'
      ? pay.declinedNextBank
      : context.request.allow_ach === 1
        ? pay.declinedNextOrBank
        : pay.declinedNext;
  return html`<div class="summary" role="alert" aria-labelledby="error-summary-title" id="error-summary" tabindex="-1" autofocus>
<h2 id="error-summary-title">${state.declined ? outcome.declinedTitle : pay.problemTitle}</h2>
<ul><li><a href="#${fieldOf(problem)}">${message}</a></li></ul>
${state.declined && html`<p>${next}</p>`}
</div>`;
}

/** The sandbox's test cards and bank account: kept on the page, closed below the forms. */
function testDetails(context: PayContext): Html {
  if (!context.sandbox) return html``;
  const texts = context.lang.texts.pay;
  const { allow_card: card, allow_ach: ach } = context.request;
  const code = (text: string) => html`<code>${text}</code>`;
  return html`<details class="pay-note" id="test-details">
<summary>${texts.sandboxTitle}</summary>
<p>${texts.sandboxNote}</p>
${
  card === 1 &&
  html`<ul>
<li>${fillHtml(texts.testApproves, { card: code('4242 4242 4242 4242') })}</li>
<li>${fillHtml(texts.testDeclined, { card: code('4000 0000 0000 0002') })}</li>
<li>${fillHtml(texts.testNoFunds, { card: code('4000 0000 0000 9995') })}</li>
<li>${fillHtml(texts.testChallenge, { card: code('4000 0000 0000 3220') })}</li>
</ul>
<p>${texts.testAnyExpiry}</p>`
}
${ach === 1 && html`<p>${fillHtml(texts.testAch, { routing: code('110000000') })}</p>`}
</details>`;
}

/**
 * Card or bank as one choice of two radio buttons (arrow keys move between them); the stylesheet shows the chosen
 * method's form and total (`:has`), so it works without scripts. None when one method is allowed.
 */
function methodChoice(context: PayContext, chosen: PaymentMethod | undefined): Html {
  if (!chosen) return html``;
  const texts = context.lang.texts.pay;
  const option = (method: PaymentMethod, label: string) =>
    html`<label class="pay-option" for="choose-${method}"><input type="radio" name="pay_method" id="choose-${method}" value="${method}"${method === chosen ? raw(' checked') : ''}>${label}</label>`;
  return html`<fieldset class="pay-choice">
<legend>${texts.methodLegend}</legend>
<div class="pay-options">${option('card', texts.methodCard)}${option('ach', texts.methodBank)}</div>
</fieldset>`;
}

/** The total in the page's header: the one of the chosen method when a passed-on fee makes them differ. */
function headerTotal(context: PayContext, chosen: PaymentMethod | undefined): Html {
  const { request, lang } = context;
  const line = (method: PaymentMethod, extra = '') =>
    html`<p class="pay-total${extra}">${fill(lang.texts.pay.total, { total: formatUsd(totalFor(request, method), lang.locale) })}</p>`;
  if (!chosen || totalFor(request, 'card') === totalFor(request, 'ach'))
    return line(allowedMethods(request)[0] ?? 'card');
  return html`${line('card', ' for-card')}${line('ach', ' for-ach')}`;
}

/**
 * The hosted pay page, paying first: the total under the title, what is due in a summary that opens, then the way
 * to pay (card or bank as a choice) and its form; after a refusal or a decline the summary of what went wrong comes
 * right after the total, and the form keeps what may be kept. With scripts on, the card form checks the number
 * (Luhn), the expiry and the security code as they are typed, groups the number and shows its brand
 * (pay-card-script.ts); without, the service checks them on submit, as always.
 */
export function payPage(context: PayContext, state: PayFormState = { values: {} }, nonce?: string): Page {
  const { request, merchantName, lang } = context;
  const texts = lang.texts.pay;
  const both = request.allow_card === 1 && request.allow_ach === 1;
  const chosen = both ? (state.problem?.method ?? 'card') : undefined;
  const preauth =
    request.preauth === 1
      ? html`<p class="warning">${fillHtml(texts.preauth, { held: html`<strong>${texts.held}</strong>`, merchant: merchantName })}</p>`
      : '';
  const body = html`${headerTotal(context, chosen)}
${errorSummary(context, state)}
<details class="pay-details">
<summary>${texts.orderDetails}</summary>
${requestDetails(context)}
${amountBreakdown(context)}
</details>
${preauth}
<div class="pay-methods">
${methodChoice(context, chosen)}
${request.allow_card === 1 && cardForm(context, state, chosen)}
${request.allow_ach === 1 && achForm(context, state, chosen)}
</div>
${testDetails(context)}
${request.allow_card === 1 && nonce && html`<script nonce="${nonce}">${raw(cardScript(lang.texts))}</script>`}
${state.after}
${escapeClosesDialog(context, nonce)}`;
  return renderPage({
    title: fill(texts.title, { merchant: merchantName }),
    body,
    status: state.problem ? (state.status ?? 400) : 200,
    language: lang.language,
    brand: context.brand,
    className: 'pay-page',
  });
}
