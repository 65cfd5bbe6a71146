import type { PaymentMethod } from '../domain/pricing.ts';
import { payPath } from '../domain/pay-links.ts';
import { attributes, html, type Html } from './html.ts';
import { renderPage, type Page } from './layout.ts';
import { amountBreakdown, formatUsd, requestDetails, totalFor, type PayContext } from './pay-summary.ts';

/**
 * What the customer typed that may be shown again. The card number, the security code and the bank account
 * number are never among them: a re-rendered form leaves those empty.
 */
export interface PayFormValues {
  card_name?: string | undefined;
  exp_month?: string | undefined;
  exp_year?: string | undefined;
  account_name?: string | undefined;
  routing_number?: string | undefined;
}

export interface PayFormProblem {
  method: PaymentMethod;
  message: string;
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
  [/expiry|expired/i, 'card-exp-month'],
  [/security code/i, 'card-cvc'],
  [/routing/i, 'ach-routing'],
  [/account number/i, 'ach-account'],
];

export function fieldOf(problem: PayFormProblem): string {
  const prefix = `${problem.method}-`;
  const found = FIELD_OF_MESSAGE.find(([pattern, id]) => id.startsWith(prefix) && pattern.test(problem.message));
  return found ? found[1] : problem.method === 'card' ? 'card-number' : 'ach-name';
}

interface InputSpec {
  id: string;
  name: string;
  label: string;
  hint?: string | undefined;
  /** A hint shared with other inputs, shown once above them. */
  sharedHint?: string | undefined;
  optional?: boolean;
  /** Extra attributes: autocomplete, inputmode, maxlength. */
  extra: Record<string, string | number | boolean | undefined>;
  value: string;
}

function input(spec: InputSpec, errorField: string | undefined, error: string | undefined): Html {
  const message = errorField === spec.id ? error : undefined;
  const described = [message && `${spec.id}-error`, spec.hint && `${spec.id}-hint`, spec.sharedHint].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="${spec.id}">${spec.label}${spec.optional && html` <span class="optional">(optional)</span>`}</label>
${spec.hint && html`<p class="hint" id="${spec.id}-hint">${spec.hint}</p>`}${message && html`<p class="error" id="${spec.id}-error">${message}</p>`}<input type="text" id="${spec.id}" name="${spec.name}"${attributes({
  ...spec.extra, required: !spec.optional, 'aria-describedby': described || undefined, 'aria-invalid': message ? 'true' : undefined,
})} value="${spec.value}">
</div>`;
}

const REENTER = 'For your security, type it again: we never send it back to your browser.';

function hidden(method: PaymentMethod, origin: string | undefined): Html {
  return html`<input type="hidden" name="method" value="${method}">${origin && html`<input type="hidden" name="origin" value="${origin}">`}`;
}

function payButton(context: PayContext, method: PaymentMethod): Html {
  const total = formatUsd(totalFor(context.request, method));
  if (context.request.preauth) return html`<button type="submit">Authorize ${total}</button>`;
  return html`<button type="submit">Pay ${total}${method === 'ach' ? ' from bank account' : ' by card'}</button>`;
}

function cardForm(context: PayContext, state: PayFormState): Html {
  const { values, problem } = state;
  const error = problem?.method === 'card' ? problem.message : undefined;
  const at = problem?.method === 'card' ? fieldOf(problem) : undefined;
  const again = problem?.method === 'card' ? `${REENTER} ` : '';
  return html`<form method="post" action="${payPath(context.token)}" id="card-form">
<fieldset>
<legend>Pay by card</legend>
${hidden('card', context.origin)}
${input({ id: 'card-name', name: 'card_name', label: 'Name on card', optional: true, extra: { autocomplete: 'cc-name', maxlength: 100 }, value: values.card_name ?? '' }, at, error)}
${input({ id: 'card-number', name: 'card_number', label: 'Card number', hint: `${again}The long number on the front of your card.`, extra: { autocomplete: 'cc-number', inputmode: 'numeric', maxlength: 23, spellcheck: 'false' }, value: '' }, at, error)}
<fieldset class="pay-expiry">
<legend>Expiry date</legend>
<p class="hint" id="card-exp-hint">As printed on the card: month and year, e.g. 04 and 29.</p>
<div class="pay-row">
${input({ id: 'card-exp-month', name: 'exp_month', label: 'Month (MM)', sharedHint: 'card-exp-hint', extra: { autocomplete: 'cc-exp-month', inputmode: 'numeric', maxlength: 2 }, value: values.exp_month ?? '' }, at, error)}
${input({ id: 'card-exp-year', name: 'exp_year', label: 'Year (YY)', sharedHint: 'card-exp-hint', extra: { autocomplete: 'cc-exp-year', inputmode: 'numeric', maxlength: 4 }, value: values.exp_year ?? '' }, at, error)}
</div>
</fieldset>
${input({ id: 'card-cvc', name: 'cvc', label: 'Security code (CVC)', hint: `${again}3 digits on the back; 4 on the front for American Express.`, extra: { autocomplete: 'cc-csc', inputmode: 'numeric', maxlength: 4 }, value: '' }, at, error)}
${payButton(context, 'card')}
</fieldset>
</form>`;
}

function achForm(context: PayContext, state: PayFormState): Html {
  const { values, problem } = state;
  const error = problem?.method === 'ach' ? problem.message : undefined;
  const at = problem?.method === 'ach' ? fieldOf(problem) : undefined;
  const again = problem?.method === 'ach' ? `${REENTER} ` : '';
  return html`<form method="post" action="${payPath(context.token)}" id="ach-form">
<fieldset>
<legend>Pay from a bank account (ACH)</legend>
${hidden('ach', context.origin)}
<p class="hint">Bank payments take a few business days to clear.</p>
${input({ id: 'ach-name', name: 'account_name', label: 'Account holder name', extra: { autocomplete: 'name', maxlength: 100 }, value: values.account_name ?? '' }, at, error)}
${input({ id: 'ach-routing', name: 'routing_number', label: 'Routing number', hint: '9 digits, printed at the bottom left of a check.', extra: { inputmode: 'numeric', maxlength: 9, autocomplete: 'off' }, value: values.routing_number ?? '' }, at, error)}
${input({ id: 'ach-account', name: 'account_number', label: 'Account number', hint: `${again}4 to 17 digits.`, extra: { inputmode: 'numeric', maxlength: 17, autocomplete: 'off' }, value: '' }, at, error)}
${payButton(context, 'ach')}
</fieldset>
</form>`;
}

function errorSummary(problem: PayFormProblem | undefined): Html {
  if (!problem) return html``;
  return html`<div class="summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">The payment did not go through</h2>
<ul><li><a href="#${fieldOf(problem)}">${problem.message}</a></li></ul>
</div>`;
}

function testDetails(context: PayContext): Html {
  if (!context.sandbox) return html``;
  const { allow_card: card, allow_ach: ach } = context.request;
  return html`<section class="pay-note" aria-labelledby="test-details-title">
<h2 id="test-details-title">Sandbox test details</h2>
<p>This is the sandbox: no real money moves.</p>
${card === 1 && html`<ul>
<li><code>4242 4242 4242 4242</code> approves</li>
<li><code>4000 0000 0000 0002</code> is declined</li>
<li><code>4000 0000 0000 9995</code> is declined for insufficient funds</li>
<li><code>4000 0000 0000 3220</code> asks for 3-D Secure</li>
</ul>
<p>Use any future expiry date and any 3-digit security code.</p>`}
${ach === 1 && html`<p>Bank account: routing number <code>110000000</code> with any 4 to 17 digit account number.</p>`}
</section>`;
}

/** The hosted pay page: what is due, then one form per way to pay; after a refusal the summary comes first. */
export function payPage(context: PayContext, state: PayFormState = { values: {} }): Page {
  const { request, merchantName } = context;
  const preauth = request.preauth === 1
    ? html`<p class="warning">Your card will be <strong>authorized (held), not charged</strong>: ${merchantName} charges it later.</p>`
    : '';
  const body = html`${errorSummary(state.problem)}
${requestDetails(context)}
${amountBreakdown(request)}
${preauth}
${testDetails(context)}
${request.allow_card === 1 && cardForm(context, state)}
${request.allow_ach === 1 && achForm(context, state)}`;
  return renderPage({ title: `Pay ${merchantName}`, body, status: state.problem ? (state.status ?? 400) : 200 });
}
