import { AGREEMENT_VERSION } from '../domain/signature.ts';
import { html, type Html } from './html.ts';
import type { PageTexts } from './i18n/en.ts';
import { fill } from './i18n/template.ts';

/** The text the merchant signs at the end of the hosted form, in the form's language. */
export function agreementText(texts: PageTexts): Html {
  const { agreementTitle, agreementTerms } = texts.onboarding;
  return html`<div class="agreement" id="agreement-text">
<h2>${fill(agreementTitle, { version: AGREEMENT_VERSION })}</h2>
<ol>
${agreementTerms.map((term) => html`<li>${term}</li>\n`)}</ol>
</div>`;
}
