import { AGREEMENT_VERSION } from '../domain/signature.ts';
import { html } from './html.ts';

export const AGREEMENT_TITLE = `Paykit merchant agreement (sandbox), version ${AGREEMENT_VERSION}`;

/** The text the merchant signs at the end of the hosted form. */
export const agreementText = html`<div class="agreement" id="agreement-text">
<h2>${AGREEMENT_TITLE}</h2>
<ol>
<li>You accept card and bank payments through Paykit for the business described above, and only for lawful goods and services.</li>
<li>The details you give are true and complete, and you will tell your partner when they change.</li>
<li>Paykit pays settled funds, less its fees, into the bank account above, and may hold funds to cover refunds, chargebacks and suspected fraud.</li>
<li>Paykit uses your details to verify you and your business, and keeps only the last four digits of the Social Security and bank account numbers.</li>
<li>Either side may end this agreement with 30 days' notice. This is a sandbox agreement: no real money moves.</li>
</ol>
</div>`;
