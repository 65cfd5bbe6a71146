import type { FieldError } from '../domain/onboarding.ts';
import { COUNTRY_CODES } from '../domain/countries.ts';
import { SIGNATURE_PROBLEMS } from '../domain/signature.ts';
import { ONBOARDING_FORM_TTL_MS, ONBOARDING_LINK_TTL_MS } from '../domain/session-lifetimes.ts';
import { attributes, html, type Html } from './html.ts';
import { renderPage, type Page } from './layout.ts';
import type { FieldName, OptionValue, PageTexts } from './i18n/en.ts';
import type { PageLocale } from './i18n/language.ts';
import { fieldMessage, signatureMessage } from './i18n/service-messages.ts';
import { fill, fillHtml } from './i18n/template.ts';
import { FORM_GROUPS, type FormField } from './onboarding-fields.ts';

/** Places the domain's signature messages on the input each is about. */
export function signatureFieldErrors(messages: string[]): FieldError[] {
  return messages.map((message) => ({
    field: message === SIGNATURE_PROBLEMS.agree ? 'agree' : 'signature_name',
    message,
  }));
}

export const idOf = (name: string) => name.replace('.', '-');
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
  e.field === 'agree' || e.field === 'signature_name'
    ? signatureMessage(e.message, lang.texts)
    : fieldMessage(e.field, e.message, lang.texts, lang.locale);

/** Each input's errors in the form's language, joined when one input has several. */
export function errorsByInput(errors: FieldError[], lang: PageLocale): Map<string, string> {
  const byInput = new Map<string, string>();
  for (const e of errors) {
    const message = readable(e, lang);
    byInput.set(e.field, byInput.has(e.field) ? `${byInput.get(e.field)} ${message}` : message);
  }
  return byInput;
}

interface Described {
  id: string;
  hint: string | undefined;
  error: string | undefined;
}

/** The hint and error under a label, and the aria attributes that tie them to the input. */
export function description({ id, hint, error }: Described): { notes: Html; aria: Html } {
  const ids = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ');
  return {
    notes: html`${hint && html`<p class="hint" id="${id}-hint">${hint}</p>`}${error && html`<p class="error" id="${id}-error">${error}</p>`}`,
    aria: attributes({ 'aria-describedby': ids || undefined, 'aria-invalid': error ? 'true' : undefined }),
  };
}

/** The countries in the page's language, in its alphabetical order. */
function countryNames(locale: string): [string, string][] {
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  const collator = new Intl.Collator(locale);
  return COUNTRY_CODES.map((code): [string, string] => [code, names.of(code) ?? code]).sort((a, b) =>
    collator.compare(a[1], b[1]),
  );
}

/** How a field's stored value reads to the merchant: an option's or a country's name, else the value. */
export function shownValue(field: FormField, value: string, lang: PageLocale): string {
  if (field.country)
    return new Intl.DisplayNames([lang.locale], { type: 'region', fallback: 'code' }).of(value) ?? value;
  if (field.options) return lang.texts.onboarding.options[value as OptionValue] ?? value;
  return value;
}

function control(field: FormField, id: string, value: string, aria: Html, required: boolean, lang: PageLocale): Html {
  const { texts } = lang;
  const common = html`id="${id}" name="${field.name}"${attributes({ required, autocomplete: field.autocomplete })}${aria}`;
  const choices: [string, string][] | undefined = field.country
    ? countryNames(lang.locale)
    : field.options?.map((option) => [option, texts.onboarding.options[option as OptionValue] ?? option]);
  if (choices) {
    const options = choices.map(
      ([option, words]) =>
        html`<option value="${option}"${attributes({ selected: option === value })}>${words}</option>`,
    );
    return html`<select ${common}><option value="">${texts.onboarding.chooseOne}</option>${options}</select>`;
  }
  const extra = attributes({ inputmode: field.inputmode, maxlength: field.spec.maxLength });
  return html`<input type="${field.type ?? 'text'}" ${common}${extra} value="${value}">`;
}

export interface FieldState {
  value: string;
  error: string | undefined;
  /** For a secret field: the last four digits kept of the number given before. */
  keptLast4?: string | undefined;
  /** For a secret field: it was typed and must be typed again (it is never sent back to the browser). */
  reenter?: boolean;
}

/** One labelled input with its hint and error. */
export function fieldMarkup(field: FormField, state: FieldState, lang: PageLocale): Html {
  const { texts } = lang;
  const id = idOf(field.name);
  const own = (texts.onboarding.hints as Partial<Record<FieldName, string>>)[field.name as FieldName];
  const kept = field.secret && state.keptLast4 ? fill(texts.onboarding.kept, { last4: state.keptLast4 }) : undefined;
  const reenter = field.secret && state.reenter && !kept ? texts.onboarding.reenter : undefined;
  const hint = [kept ?? reenter, own].filter(Boolean).join(' ') || undefined;
  const { notes, aria } = description({ id, hint, error: state.error });
  const value = field.secret ? '' : state.value;
  const required = field.spec.required && !kept;
  return html`<div class="field">
<label for="${id}">${texts.onboarding.labels[field.name as FieldName]}${!field.spec.required && html` <span class="optional">${texts.pay.optional}</span>`}</label>
${notes}${control(field, id, value, aria, required, lang)}
</div>`;
}

/** The errors first on the page, each a link to its input (`hrefOf` when the input is on another page). */
export function errorSummary(
  errors: FieldError[],
  lang: PageLocale,
  hrefOf: (field: string) => string = (field) => `#${idOf(field)}`,
): Html {
  if (errors.length === 0) return html``;
  const items = [...errors]
    .sort((a, b) => formOrder(a) - formOrder(b))
    .map((e) => html`<li><a href="${hrefOf(e.field)}">${legendOf(e.field, lang.texts)}: ${readable(e, lang)}</a></li>`);
  const title =
    errors.length === 1
      ? lang.texts.onboarding.correctOne
      : fill(lang.texts.onboarding.correctMany, { count: errors.length });
  return html`<div class="summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">${title}</h2>
<ul>${items}</ul>
</div>`;
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

/** Why a link cannot show the form: 404 unknown, 410 used or expired, 403 opened by another browser. */
export function linkProblemPage(state: 'unknown' | 'used' | 'expired' | 'elsewhere', lang: PageLocale): Page {
  const texts = lang.texts.onboarding;
  const lifetimes = { minutes: ONBOARDING_LINK_TTL_MS / 60_000, days: ONBOARDING_FORM_TTL_MS / 86_400_000 };
  const { status, title, text } = {
    unknown: { status: 404, title: texts.unknownTitle, text: texts.unknown },
    used: { status: 410, title: texts.usedTitle, text: texts.used },
    expired: { status: 410, title: texts.expiredTitle, text: fill(texts.expired, lifetimes) },
    elsewhere: { status: 403, title: texts.elsewhereTitle, text: texts.elsewhere },
  }[state];
  return renderPage({ title, status, language: lang.language, body: html`<p>${text}</p>` });
}
