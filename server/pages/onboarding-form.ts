import type { FieldError } from '../domain/onboarding.ts';
import { validateSignature, AGREEMENT_VERSION } from '../domain/signature.ts';
import { ONBOARDING_LINK_TTL_MS } from '../domain/session-lifetimes.ts';
import { attributes, html, type Html } from './html.ts';
import { renderPage, type Page } from './layout.ts';
import { agreementText } from './agreement.ts';
import { FORM_GROUPS, optionLabel, readableMessage, type FormField } from './onboarding-fields.ts';

export interface OnboardingFormState {
  /** Keyed by input name: `Group.field` and `signature_name`. */
  values: Record<string, string | undefined>;
  agreed: boolean;
  /** `field` is an input name, or `agree` / `signature_name` for the signature. */
  errors: FieldError[];
}

// The domain answers messages, not field names: the unticked-box message is the one a valid name still gets.
const AGREE_ERROR = validateSignature({ signerName: 'Jane Doe', agreed: false })[0];

/** Places the domain's signature messages on the input each is about. */
export function signatureFieldErrors(messages: string[]): FieldError[] {
  return messages.map((message) => ({ field: message === AGREE_ERROR ? 'agree' : 'signature_name', message }));
}

const idOf = (name: string) => name.replace('.', '-');
const FORM_ORDER = [...FORM_GROUPS.flatMap((g) => g.fields.map((f) => f.name)), 'agree', 'signature_name'];
const formOrder = (e: FieldError) => {
  const index = FORM_ORDER.indexOf(e.field);
  return index === -1 ? FORM_ORDER.length : index;
};

const SIGNATURE_LEGEND = 'Merchant agreement';
const legendOf = (name: string) => FORM_GROUPS.find((g) => name.startsWith(`${g.group}.`))?.legend ?? SIGNATURE_LEGEND;

interface Described {
  id: string;
  hint: string | undefined;
  error: string | undefined;
}

/** The hint and error under a label, and the aria attributes that tie them to the input. */
function description({ id, hint, error }: Described): { notes: Html; aria: Html } {
  const ids = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ');
  return {
    notes: html`${hint && html`<p class="hint" id="${id}-hint">${hint}</p>`}${error && html`<p class="error" id="${id}-error">${error}</p>`}`,
    aria: attributes({ 'aria-describedby': ids || undefined, 'aria-invalid': error ? 'true' : undefined }),
  };
}

function control(field: FormField, id: string, value: string, aria: Html): Html {
  const common = html`id="${id}" name="${field.name}"${attributes({ required: field.spec.required, autocomplete: field.autocomplete })}${aria}`;
  if (field.options) {
    const options = field.options.map((option) => html`<option value="${option}"${attributes({ selected: option === value })}>${optionLabel(option)}</option>`);
    return html`<select ${common}><option value="">Choose one</option>${options}</select>`;
  }
  const extra = attributes({ inputmode: field.inputmode, maxlength: field.spec.maxLength });
  return html`<input type="${field.type ?? 'text'}" ${common}${extra} value="${value}">`;
}

function fieldMarkup(field: FormField, state: OnboardingFormState, errors: Map<string, string>): Html {
  const id = idOf(field.name);
  const error = errors.get(field.name);
  // SSN and account number are never sent back to the browser, so after an error they must be typed again.
  const reenter = field.secret && state.errors.length > 0 ? 'For your security, re-enter it: we never send it back to your browser. ' : '';
  const hint = reenter || field.hint ? `${reenter}${field.hint ?? ''}`.trim() : undefined;
  const { notes, aria } = description({ id, hint, error });
  const value = field.secret ? '' : (state.values[field.name] ?? '');
  return html`<div class="field">
<label for="${id}">${field.spec.label}${!field.spec.required && html` <span class="optional">(optional)</span>`}</label>
${notes}${control(field, id, value, aria)}
</div>`;
}

function errorSummary(errors: FieldError[]): Html {
  if (errors.length === 0) return html``;
  const items = [...errors].sort((a, b) => formOrder(a) - formOrder(b)).map((e) => html`<li><a href="#${idOf(e.field)}">${legendOf(e.field)}: ${readableMessage(e.field, e.message)}</a></li>`);
  const count = errors.length === 1 ? 'one answer' : `${errors.length} answers`;
  return html`<div class="summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">Please correct ${count}</h2>
<ul>${items}</ul>
</div>`;
}

function signatureMarkup(state: OnboardingFormState, errors: Map<string, string>): Html {
  const agree = description({ id: 'agree', hint: undefined, error: errors.get('agree') });
  const name = description({ id: 'signature_name', hint: 'First and last name, e.g. Jane Doe.', error: errors.get('signature_name') });
  return html`<fieldset>
<legend>${SIGNATURE_LEGEND}</legend>
${agreementText}
${agree.notes}<div class="check field">
<input type="checkbox" id="agree" name="agree" value="yes" required${attributes({ checked: state.agreed })}${agree.aria}>
<label for="agree">I have read and accept the Paykit merchant agreement, version ${AGREEMENT_VERSION}.</label>
</div>
<div class="field">
<label for="signature_name">Type your full name to sign</label>
${name.notes}<input type="text" id="signature_name" name="signature_name" required autocomplete="name" maxlength="200" value="${state.values.signature_name ?? ''}"${name.aria}>
</div>
</fieldset>`;
}

/** The hosted onboarding form; with errors it is answered 400, the summary first and each bad field marked. */
export function onboardingFormPage(state: OnboardingFormState): Page {
  const errors = new Map<string, string>();
  for (const e of state.errors) {
    const message = readableMessage(e.field, e.message);
    errors.set(e.field, errors.has(e.field) ? `${errors.get(e.field)} ${message}` : message);
  }
  const groups = FORM_GROUPS.map(({ legend, fields }) => html`<fieldset>
<legend>${legend}</legend>
${fields.map((field) => fieldMarkup(field, state, errors))}
</fieldset>`);
  const body = html`${errorSummary(state.errors)}
<p>Tell us about your business so you can accept payments. Fields marked optional may be left empty; every other field is needed. It takes about ten minutes.</p>
<form method="post">
${groups}
${signatureMarkup(state, errors)}
<button type="submit">Sign and submit application</button>
</form>`;
  return renderPage({ title: 'Set up your merchant account', body, status: state.errors.length > 0 ? 400 : 200 });
}

export function thankYouPage(businessName: string): Page {
  return renderPage({
    title: 'Thank you — your application is under review',
    body: html`<p>We have received the application${businessName && html` for <strong>${businessName}</strong>`} and your signed merchant agreement.</p>
<p>The partner that sent you the link will let you know when your account is approved. You can close this page.</p>`,
  });
}

const LINK_PROBLEMS = {
  unknown: {
    status: 404,
    title: 'This onboarding link is not valid',
    text: 'Check that you opened the whole link from your message. If it still does not work, ask the partner that sent it for a new link.',
  },
  used: {
    status: 410,
    title: 'This onboarding link has already been used',
    text: 'The application for this link has been submitted and is being reviewed. Each link works once; if you need to change your details, ask the partner that sent it.',
  },
  expired: {
    status: 410,
    title: 'This onboarding link has expired',
    text: `Onboarding links work for ${ONBOARDING_LINK_TTL_MS / 86_400_000} days. Ask the partner that sent it for a new link.`,
  },
} as const;

/** Why a link cannot show the form: 404 unknown, 410 used or expired. */
export function linkProblemPage(state: keyof typeof LINK_PROBLEMS): Page {
  const { status, title, text } = LINK_PROBLEMS[state];
  return renderPage({ title, status, body: html`<p>${text}</p>` });
}
