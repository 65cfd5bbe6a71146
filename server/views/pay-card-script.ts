import { CARD_BRANDS } from '../domain/test-cards.ts';
import type { PageTexts } from './i18n/en.ts';
import { scriptJson } from './script-json.ts';

/** The brands as the script reads them: the short name and the prefix's pattern (the service's own, test-cards.ts). */
const BRANDS = scriptJson(CARD_BRANDS.map((brand) => [brand.short, brand.prefix.source]));

/**
 * The card form's one script (allowed by the page's CSP nonce), as the best checkouts behave: the number is grouped
 * as it is typed (4-6-5 for American Express, 4-4-4-4 otherwise) with its brand beside it, the expiry is one
 * `MM / YY` field (an autofilled `MM/YYYY` is taken too), and the number (Luhn), the expiry and the security code are
 * checked as soon as each is complete and before the form is sent, with the message on the field. The
 * service checks everything again: the page works the same without this script.
 */
export function cardScript(texts: PageTexts): string {
  const messages = {
    numberMissing: texts.pay.cardNumberMissing,
    number: texts.cardProblems.number,
    expiryFormat: texts.pay.expiryFormat,
    month: texts.cardProblems.month,
    expired: texts.cardProblems.expired,
    cvcMissing: texts.pay.cvcMissing,
    cvc3: texts.cardProblems.cvc3,
    cvc4: texts.cardProblems.cvc4,
  };
  return `(() => {
const t = ${scriptJson(messages)};
const form = document.getElementById('card-form');
if (!form) return;
form.noValidate = true;
const number = form.elements.card_number, exp = form.elements.exp, cvc = form.elements.cvc;
const brandLine = document.getElementById('card-brand');
const digits = (text) => text.replace(/\\D/g, '');
const brands = ${BRANDS}.map(([name, prefix]) => [name, new RegExp(prefix)]);
const brandOf = (d) => (brands.find(([, prefix]) => prefix.test(d)) || [''])[0];
// The Luhn check, as the service makes it (test-cards.ts).
const luhn = (d) => {
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let x = Number(d[d.length - 1 - i]);
    if (i % 2) x = x * 2 > 9 ? x * 2 - 9 : x * 2;
    sum += x;
  }
  return sum % 10 === 0;
};
const grouped = (d) => {
  const sizes = brandOf(d) === 'Amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts = [];
  let at = 0;
  for (const size of sizes) if (at < d.length) parts.push(d.slice(at, (at += size)));
  return parts.join(' ');
};
/** Rewrites a field's text, keeping the caret after the same number of digits. */
const reformat = (input, format) => {
  const before = digits(input.value.slice(0, input.selectionStart ?? input.value.length)).length;
  const text = format(input.value);
  if (text === input.value) return;
  input.value = text;
  let caret = 0;
  for (let seen = 0; caret < text.length && seen < before; caret++) if (/\\d/.test(text[caret])) seen++;
  if (document.activeElement === input) input.setSelectionRange(caret, caret);
};
/** \`MM / YY\` from what was typed or autofilled: \`1229\`, \`12/29\`, \`1/2029\`; a first digit above 1 is a month of its own. */
const expiry = (text) => {
  const parts = /^\\s*(\\d{1,2})\\s*\\/\\s*(\\d{2}|\\d{4})\\s*$/.exec(text);
  let d = parts ? parts[1].padStart(2, '0') + parts[2].slice(-2) : digits(text).slice(0, 4);
  if (/^[2-9]$/.test(d)) d = '0' + d;
  return d.length > 2 ? d.slice(0, 2) + ' / ' + d.slice(2) : d;
};
const checks = {
  card_number() {
    const d = digits(number.value);
    if (!d) return t.numberMissing;
    return d.length < 12 || d.length > 19 || !luhn(d) ? t.number : '';
  },
  exp() {
    const m = /^(\\d{2}) \\/ (\\d{2})$/.exec(expiry(exp.value));
    if (!m) return t.expiryFormat;
    const month = Number(m[1]), year = 2000 + Number(m[2]), now = new Date();
    if (month < 1 || month > 12) return t.month;
    return year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1) ? t.expired : '';
  },
  cvc() {
    const d = digits(cvc.value);
    if (!d) return t.cvcMissing;
    const amex = brandOf(digits(number.value)) === 'Amex';
    return d.length === (amex ? 4 : 3) ? '' : amex ? t.cvc4 : t.cvc3;
  },
};
/** Shows a field's message above it, as the service's own errors are shown, or takes it away. */
const show = (input, message) => {
  const id = input.id + '-error';
  let line = document.getElementById(id);
  if (message && !line) {
    line = document.createElement('p');
    line.className = 'error';
    line.id = id;
    input.closest('.field').insertBefore(line, input.closest('.pay-inside') || input);
  }
  if (line) line.textContent = message;
  if (line && !message) line.remove();
  const described = (input.getAttribute('aria-describedby') || '').split(' ').filter((name) => name && name !== id);
  if (message) {
    described.unshift(id);
    input.setAttribute('aria-invalid', 'true');
  } else input.removeAttribute('aria-invalid');
  if (described.length) input.setAttribute('aria-describedby', described.join(' '));
  else input.removeAttribute('aria-describedby');
};
const check = (input) => {
  const message = checks[input.name]();
  show(input, message);
  return message;
};
// A field is checked once it is complete (a whole number, four expiry digits, a code too long), and again at
// each change while it shows a message, so the message goes as soon as it is right. Not on blur: a message that
// appears as the payer leaves for the pay button moves the button away from under the click.
const complete = {
  card_number: (d) => d.length >= (brandOf(d) === 'Amex' ? 15 : 16),
  exp: (d) => d.length >= 4,
  cvc: (d) => d.length > (brandOf(digits(number.value)) === 'Amex' ? 4 : 3),
};
const follow = (input, format) => input.addEventListener('input', (event) => {
  if (event.inputType !== 'deleteContentBackward') reformat(input, format);
  if (input.getAttribute('aria-invalid') || complete[input.name](digits(input.value))) check(input);
});
follow(number, (text) => grouped(digits(text).slice(0, 19)));
follow(exp, expiry);
follow(cvc, (text) => digits(text).slice(0, 4));
number.addEventListener('input', () => (brandLine.textContent = brandOf(digits(number.value))));
form.addEventListener('submit', (event) => {
  const invalid = [number, exp, cvc].filter((input) => check(input));
  if (invalid.length) {
    event.preventDefault();
    invalid[0].focus();
  }
});
})();`;
}
