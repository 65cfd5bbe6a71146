/**
 * The service's own messages (in English, as the API says them) in a hosted page's language. A message Paykit has
 * no translation for stays as the service said it.
 */
import { SIGNATURE_PROBLEMS } from '../../domain/signature.ts';
import { ONBOARDING_FIELDS, RULE_PROBLEMS, type OnboardingGroup } from '../../domain/onboarding.ts';
import { en, type FieldName, type PageTexts } from './en.ts';
import { fill } from './template.ts';

const PAYMENT_GROUPS = ['linkProblems', 'declines', 'cardProblems', 'paymentProblems'] as const;

/** A refusal or decline of a payment, e.g. "The card has expired." */
export function paymentMessage(message: string, texts: PageTexts): string {
  for (const group of PAYMENT_GROUPS) {
    for (const [key, english] of Object.entries(en[group]))
      if (english === message) return (texts[group] as Record<string, string>)[key]!;
  }
  return message;
}

const keyOf = <T extends Record<string, string>>(table: T, text: string) =>
  (Object.keys(table) as (keyof T)[]).find((key) => table[key] === text);

/** A signature problem of the onboarding form. */
export function signatureMessage(message: string, texts: PageTexts): string {
  const key = keyOf(SIGNATURE_PROBLEMS, message);
  return key ? texts.onboarding.signature[key] : message;
}

/**
 * A field error of the onboarding form, as the domain words it (`BusinessInfo.ein must be 9 digits…`), with the
 * field's label for its name: "EIN must be 9 digits, e.g. …".
 */
export function fieldMessage(field: string, message: string, texts: PageTexts, locale: string): string {
  const onboarding = texts.onboarding;
  const label = (name: string) => onboarding.labels[name as FieldName] ?? name;
  if (message === `${field} is required (${en.onboarding.labels[field as FieldName]}).`)
    return fill(onboarding.required, { label: label(field) });
  const tooLong = new RegExp(`^${field.replace('.', '\\.')} must be at most (\\d+) characters\\.$`).exec(message);
  if (tooLong) return fill(onboarding.tooLong, { label: label(field), max: tooLong[1]! });
  if (message.startsWith(`${field} `) && message.endsWith('.')) {
    const english = message.slice(field.length + 1, -1);
    const key = keyOf(RULE_PROBLEMS, english);
    const oneOf = /^must be one of: (.*)$/.exec(english);
    const problem = key ? onboarding.problems[key] : oneOf ? fill(onboarding.oneOf, { values: oneOf[1]! }) : english;
    return fill(onboarding.rule, { label: label(field), problem });
  }
  // Rules across several fields: "ProcessingInfo: legal_b2b and legal_b2c must add up to 100 (they add up to 90).",
  // "ProcessingInfo: give all of legal_b2b and legal_b2c, or none."
  const sum = /^(\w+): (.+) must add up to 100 \(they add up to ([\d.]+)\)\.$/.exec(message);
  const some = /^(\w+): give all of (.+), or none\.$/.exec(message);
  const across = sum ?? some;
  if (across) {
    const [, group, what] = across as unknown as [string, string, string];
    const names = Object.keys(ONBOARDING_FIELDS[group as OnboardingGroup] ?? {})
      .filter((name) => new RegExp(`\\b${name}\\b`).test(what))
      .sort((a, b) => what.indexOf(a) - what.indexOf(b));
    const fields = what.includes('delivery-time')
      ? onboarding.deliveryTimes
      : new Intl.ListFormat(locale).format(names.map((name) => label(`${group}.${name}`)));
    if (sum) return fill(onboarding.mustAddUp, { fields, total: sum[3]! });
    return fill(onboarding.giveAll, {
      fields: what.includes('delivery-time') ? fields.charAt(0).toLowerCase() + fields.slice(1) : fields,
    });
  }
  return message;
}
