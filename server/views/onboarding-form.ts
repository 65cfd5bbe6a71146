import type { FieldError } from '../domain/onboarding.ts';
import { AGREEMENT_VERSION, SIGNATURE_PROBLEMS } from '../domain/signature.ts';
import { ONBOARDING_LINK_TTL_MS } from '../domain/session-lifetimes.ts';
import { attributes, html, type Html } from './html.ts';
import { renderPage, type Page } from './layout.ts';
import { agreementText } from './agreement.ts';
import type { FieldName, OptionValue, PageTexts } from './i18n/en.ts';
import type { PageLocale } from './i18n/language.ts';
import { fieldMessage, signatureMessage } from './i18n/service-messages.ts';
import { fill, fillHtml } from './i18n/template.ts';
import { FORM_GROUPS, type FormField } from './onboarding-fields.ts';

export interface OnboardingFormState {
  /** Keyed by input name: `Group.field` and `signature_name`. */
  values: Record<string, string | undefined>;
  agreed: boolean;
  /** `field` is an input name, or `agree` / `signature_name` for the signature. */
  errors: FieldError[];
  lang: PageLocale;
}

/** Places the domain's signature messages on the input each is about. */
export function signatureFieldErrors(messages: string[]): FieldError[] {
  return messages.map((message) => ({ field: message === SIGNATURE_PROBLEMS.agree ? 'agree' : 'signature_name', message }));
}

const idOf = (name: string) => name.replace('.', '-');
const FORM_ORDER = [...FORM_GROUPS.flatMap((g) => g.fields.map((f) => f.name)), 'agree', 'signature_name'];
const formOrder = (e: FieldError) => {
  const index = FORM_ORDER.indexOf(e.field);
  return index === -1 ? FORM_ORDER.length : index;
};

const legendOf = (name: string, texts: PageTexts) => {
  const group = FORM_GROUPS.find((g) => name.startsWith(`${g.group}.`))?.group;
  return group ? texts.onboarding.legends[group] : texts.onboarding.legends.agreement;
};

/** An error in the form's language: a field's rule, or the signature's. */
const readable = (e: FieldError, lang: PageLocale) =>
  (e.field === 'agree' || e.field === 'signature_name' ? signatureMessage(e.message, lang.texts) : fieldMessage(e.field, e.message, lang.texts, lang.locale));

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

function control(field: FormField, id: string, value: string, aria: Html, texts: PageTexts): Html {
  const common = html`id="${id}" name="${field.name}"${attributes({ required: field.spec.required, autocomplete: field.autocomplete })}${aria}`;
  if (field.options) {
    const options = field.options.map((option) => html`<option value="${option}"${attributes({ selected: option === value })}>${texts.onboarding.options[option as OptionValue] ?? option}</option>`);
    return html`<select ${common}><option value="">${texts.onboarding.chooseOne}</option>${options}</select>`;
  }
  const extra = attributes({ inputmode: field.inputmode, maxlength: field.spec.maxLength });
  return html`<input type="${field.type ?? 'text'}" ${common}${extra} value="${value}">`;
}

function fieldMarkup(field: FormField, state: OnboardingFormState, errors: Map<string, string>): Html {
  const { texts } = state.lang;
  const id = idOf(field.name);
  const error = errors.get(field.name);
  const own = (texts.onboarding.hints as Partial<Record<FieldName, string>>)[field.name as FieldName];
  // SSN and account number are never sent back to the browser, so after an error they must be typed again.
  const reenter = field.secret && state.errors.length > 0 ? `${texts.onboarding.reenter} ` : '';
  const hint = reenter || own ? `${reenter}${own ?? ''}`.trim() : undefined;
  const { notes, aria } = description({ id, hint, error });
  const value = field.secret ? '' : (state.values[field.name] ?? '');
  return html`<div class="field">
<label for="${id}">${texts.onboarding.labels[field.name as FieldName]}${!field.spec.required && html` <span class="optional">${texts.pay.optional}</span>`}</label>
${notes}${control(field, id, value, aria, texts)}
</div>`;
}

function errorSummary(state: OnboardingFormState): Html {
  const { errors, lang } = state;
  if (errors.length === 0) return html``;
  const items = [...errors].sort((a, b) => formOrder(a) - formOrder(b))
    .map((e) => html`<li><a href="#${idOf(e.field)}">${legendOf(e.field, lang.texts)}: ${readable(e, lang)}</a></li>`);
  const title = errors.length === 1 ? lang.texts.onboarding.correctOne : fill(lang.texts.onboarding.correctMany, { count: errors.length });
  return html`<div class="summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">${title}</h2>
<ul>${items}</ul>
</div>`;
}

function signatureMarkup(state: OnboardingFormState, errors: Map<string, string>): Html {
  const texts = state.lang.texts.onboarding;
  const agree = description({ id: 'agree', hint: undefined, error: errors.get('agree') });
  const name = description({ id: 'signature_name', hint: texts.signHint, error: errors.get('signature_name') });
  return html`<fieldset>
<legend>${texts.legends.agreement}</legend>
${agreementText(state.lang.texts)}
${agree.notes}<div class="check field">
<input type="checkbox" id="agree" name="agree" value="yes" required${attributes({ checked: state.agreed })}${agree.aria}>
<label for="agree">${fill(texts.agree, { version: AGREEMENT_VERSION })}</label>
</div>
<div class="field">
<label for="signature_name">${texts.sign}</label>
${name.notes}<input type="text" id="signature_name" name="signature_name" required autocomplete="name" maxlength="200" value="${state.values.signature_name ?? ''}"${name.aria}>
</div>
</fieldset>`;
}

/** The hosted onboarding form; with errors it is answered 400, the summary first and each bad field marked. */
export function onboardingFormPage(state: OnboardingFormState): Page {
  const { texts, language } = state.lang;
  const errors = new Map<string, string>();
  for (const e of state.errors) {
    const message = readable(e, state.lang);
    errors.set(e.field, errors.has(e.field) ? `${errors.get(e.field)} ${message}` : message);
  }
  const groups = FORM_GROUPS.map(({ group, fields }) => html`<fieldset>
<legend>${texts.onboarding.legends[group]}</legend>
${fields.map((field) => fieldMarkup(field, state, errors))}
</fieldset>`);
  const body = html`${errorSummary(state)}
<p>${texts.onboarding.intro}</p>
<form method="post">
${groups}
${signatureMarkup(state, errors)}
<button type="submit">${texts.onboarding.submit}</button>
</form>`;
  return renderPage({ title: texts.onboarding.title, body, status: state.errors.length > 0 ? 400 : 200, language });
}

export function thankYouPage(businessName: string, lang: PageLocale): Page {
  const texts = lang.texts.onboarding;
  return renderPage({
    title: texts.thankYouTitle,
    language: lang.language,
    body: html`<p>${businessName ? fillHtml(texts.received, { business: html`<strong>${businessName}</strong>` }) : texts.receivedUnnamed}</p>
<p>${texts.next}</p>`,
  });
}

/** Why a link cannot show the form: 404 unknown, 410 used or expired. */
export function linkProblemPage(state: 'unknown' | 'used' | 'expired', lang: PageLocale): Page {
  const texts = lang.texts.onboarding;
  const { status, title, text } = {
    unknown: { status: 404, title: texts.unknownTitle, text: texts.unknown },
    used: { status: 410, title: texts.usedTitle, text: texts.used },
    expired: { status: 410, title: texts.expiredTitle, text: fill(texts.expired, { days: ONBOARDING_LINK_TTL_MS / 86_400_000 }) },
  }[state];
  return renderPage({ title, status, language: lang.language, body: html`<p>${text}</p>` });
}
