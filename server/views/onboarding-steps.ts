import {
  ONBOARDING_STEPS,
  STEP_GROUPS,
  stepIndex,
  type AnswerStep,
  type OnboardingDraft,
  type OnboardingStep,
  type SecretField,
} from '../domain/onboarding-steps.ts';
import type { FieldError } from '../domain/onboarding.ts';
import { AGREEMENT_VERSION } from '../domain/signature.ts';
import { attributes, html, raw, type Html } from './html.ts';
import { renderPage, type Brand, type Page } from './layout.ts';
import { agreementText } from './agreement.ts';
import type { FieldName } from './i18n/en.ts';
import type { PageLocale } from './i18n/language.ts';
import { fill } from './i18n/template.ts';
import { FORM_GROUPS } from './onboarding-fields.ts';
import { description, errorSummary, errorsByInput, fieldMarkup, idOf, shownValue } from './onboarding-form.ts';

/** The addresses of one link's pages, carrying the `?locale=` the partner's link named. */
export interface StepAddresses {
  step(step: OnboardingStep): string;
  /** Where the review's signature is posted. */
  submit: string;
}

// The layout's styles are shared by every hosted page; these are the steps' own (the pages' CSP allows inline styles).
const STEP_STYLES = raw(`<style>
.steps{display:flex;flex-wrap:wrap;gap:0 1rem;list-style:none;margin:0 0 .5rem;padding:0;counter-reset:step}
.steps li{counter-increment:step;display:flex;align-items:center;gap:.375rem}
.steps li::before{content:counter(step);display:inline-grid;place-items:center;width:1.75rem;height:1.75rem;border-radius:50%;border:2px solid var(--line);font-weight:700;font-size:.875rem}
.steps li.done::before{background:var(--accent);border-color:var(--accent);color:var(--on-accent)}
.steps li.current::before{border-color:var(--accent);border-width:3px}
.steps a,.steps span{display:inline-block;padding:.625rem 0}
.steps [aria-current]{font-weight:700}
.step-count{color:var(--muted);margin:0 0 1rem}
.actions{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin:0 0 1.5rem}
button.secondary{background:transparent;color:var(--accent);border:2px solid var(--accent)}
.review{border:1px solid var(--soft);border-radius:.5rem;padding:0 1rem;margin:0 0 1.5rem;background:var(--card)}
.review-head{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;gap:0 1rem}
.review dl{grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 1rem}
.review dd{overflow-wrap:anywhere}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
@media (max-width:30rem){.review dl{grid-template-columns:minmax(0,1fr)}.review dd{margin-bottom:.75rem}}
</style>`);

/** The progress indicator: every step by name, those reached as links, the current one marked for assistive technology. */
function progress(step: OnboardingStep, draft: OnboardingDraft, lang: PageLocale, addresses: StepAddresses): Html {
  const texts = lang.texts.onboarding;
  const items = ONBOARDING_STEPS.map((each) => {
    const name = texts.steps[each];
    const state = each === step ? 'current' : stepIndex(each) < stepIndex(draft.reached) ? 'done' : 'ahead';
    const done = state === 'done' ? html`<span class="visually-hidden"> (${texts.stepDone})</span>` : '';
    const inner =
      each === step
        ? html`<a href="${addresses.step(each)}" aria-current="step">${name}${done}</a>`
        : stepIndex(each) <= stepIndex(draft.reached)
          ? html`<a href="${addresses.step(each)}">${name}${done}</a>`
          : html`<span>${name}</span>`;
    return html`<li class="${state}">${inner}</li>`;
  });
  return html`<nav aria-label="${texts.progress}"><ol class="steps">${items}</ol></nav>
<p class="step-count">${fill(texts.stepOf, { step: stepIndex(step) + 1, count: ONBOARDING_STEPS.length })}</p>`;
}

function savedNote(expiresAt: string, lang: PageLocale): Html {
  const date = new Intl.DateTimeFormat(lang.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(expiresAt));
  return html`<p class="hint">${fill(lang.texts.onboarding.saved, { date })}</p>`;
}

export interface StepPageState {
  step: AnswerStep;
  draft: OnboardingDraft;
  /** This step's inputs as shown, by field name: the saved answers, or the ones just refused. */
  values: Record<string, string | undefined>;
  errors: FieldError[];
  /** The refused post had secret fields typed in: they must be typed again. */
  secretsTyped: boolean;
  lang: PageLocale;
  addresses: StepAddresses;
  expiresAt: string;
  /** The platform's, when it set one (services/branding.ts). */
  brand?: Brand | undefined;
}

/** One step of the hosted onboarding form; with errors it is answered 400, the summary first and each bad field marked. */
export function onboardingStepPage(state: StepPageState): Page {
  const { step, draft, lang, addresses } = state;
  const { texts, language } = lang;
  const group = STEP_GROUPS[step];
  const fields = FORM_GROUPS.find((g) => g.group === group)!.fields;
  const errors = errorsByInput(state.errors, lang);
  const inputs = fields.map((field) =>
    fieldMarkup(
      field,
      {
        value: state.values[field.name.split('.')[1]!] ?? '',
        error: errors.get(field.name),
        keptLast4: draft.kept[field.name as SecretField],
        reenter: state.secretsTyped && state.errors.length > 0,
      },
      lang,
    ),
  );
  const first = stepIndex(step) === 0;
  const body = html`${STEP_STYLES}${progress(step, draft, lang, addresses)}
${errorSummary(state.errors, lang)}
${first && html`<p>${texts.onboarding.intro}</p>`}
<form method="post" action="${addresses.step(step)}" novalidate>
<fieldset>
<legend>${texts.onboarding.legends[group]}</legend>
${inputs}
</fieldset>
<div class="actions">
<button type="submit" name="go" value="forward">${texts.onboarding.continue}</button>
${!first && html`<button type="submit" name="go" value="back" class="secondary">${texts.onboarding.back}</button>`}
</div>
</form>
${savedNote(state.expiresAt, lang)}`;
  return renderPage({
    title: texts.onboarding.title,
    body,
    status: state.errors.length > 0 ? 400 : 200,
    language,
    brand: state.brand,
  });
}

export interface ReviewPageState {
  draft: OnboardingDraft;
  errors: FieldError[];
  signerName: string;
  agreed: boolean;
  lang: PageLocale;
  addresses: StepAddresses;
  expiresAt: string;
  /** The platform's, when it set one (services/branding.ts). */
  brand?: Brand | undefined;
}

const STEP_OF_GROUP = Object.fromEntries(
  Object.entries(STEP_GROUPS).map(([step, group]) => [group, step as AnswerStep]),
);

/** One group's answers as the merchant gave them, with a link back to its step. */
function reviewSection(step: AnswerStep, state: ReviewPageState): Html {
  const { draft, lang, addresses } = state;
  const texts = lang.texts.onboarding;
  const group = STEP_GROUPS[step];
  const rows = FORM_GROUPS.find((g) => g.group === group)!.fields.map((field) => {
    const name = field.name.split('.')[1]!;
    const last4 = draft.kept[field.name as SecretField];
    const value = field.secret ? (last4 ? fill(texts.endingIn, { last4 }) : '') : (draft.answers[group][name] ?? '');
    const shown = value ? (field.secret ? value : shownValue(field, value, lang)) : texts.notGiven;
    return html`<dt>${texts.labels[field.name as FieldName]}</dt><dd>${shown}</dd>`;
  });
  const headingId = `review-${step}`;
  return html`<section class="review" aria-labelledby="${headingId}">
<div class="review-head"><h2 id="${headingId}">${texts.legends[group]}</h2>
<a href="${addresses.step(step)}">${texts.change}<span class="visually-hidden"> ${texts.legends[group]}</span></a></div>
<dl>${rows}</dl>
</section>`;
}

function signatureMarkup(state: ReviewPageState, errors: Map<string, string>): Html {
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
${name.notes}<input type="text" id="signature_name" name="signature_name" required autocomplete="name" maxlength="200" value="${state.signerName}"${name.aria}>
</div>
</fieldset>`;
}

/** The last step: every answer to check, each group's link back, and the agreement to sign. */
export function onboardingReviewPage(state: ReviewPageState): Page {
  const { lang, addresses, draft } = state;
  const { texts, language } = lang;
  const errors = errorsByInput(state.errors, lang);
  // An answer refused at submission is fixed on its own step; the signature's errors are on this page.
  const hrefOf = (field: string) => {
    const step = STEP_OF_GROUP[field.split('.')[0]!];
    return step ? `${addresses.step(step)}#${idOf(field)}` : `#${idOf(field)}`;
  };
  const body = html`${STEP_STYLES}${progress('review', draft, lang, addresses)}
${errorSummary(state.errors, lang, hrefOf)}
<p>${texts.onboarding.reviewIntro}</p>
${(Object.keys(STEP_GROUPS) as AnswerStep[]).map((step) => reviewSection(step, state))}
<form method="post" action="${addresses.submit}" novalidate>
${signatureMarkup(state, errors)}
<div class="actions">
<button type="submit">${texts.onboarding.submit}</button>
<a href="${addresses.step('processing')}">${texts.onboarding.back}</a>
</div>
</form>
${savedNote(state.expiresAt, lang)}`;
  return renderPage({
    title: texts.onboarding.title,
    body,
    status: state.errors.length > 0 ? 400 : 200,
    language,
    brand: state.brand,
  });
}
