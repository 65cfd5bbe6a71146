import {
  lastFour,
  ONBOARDING_FIELDS,
  validateGroup,
  type FieldError,
  type OnboardingApplication,
  type OnboardingGroup,
} from './onboarding.ts';

/** The hosted onboarding form's steps, in order: one group each, then the review where the merchant signs. */
export const ONBOARDING_STEPS = ['business', 'owner', 'bank', 'processing', 'review'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];
export type AnswerStep = Exclude<OnboardingStep, 'review'>;

export const STEP_GROUPS: Record<AnswerStep, OnboardingGroup> = {
  business: 'BusinessInfo',
  owner: 'OwnerInfo',
  bank: 'BankingInfo',
  processing: 'ProcessingInfo',
};

/** Fields a draft never holds: only their last four digits, as a submitted application keeps them. */
const SECRET_FIELDS = ['OwnerInfo.ssn', 'BankingInfo.account_number'] as const;
export type SecretField = (typeof SECRET_FIELDS)[number];

/** The answers saved on a one-time onboarding link. */
export interface OnboardingDraft {
  /** Where the link opens: the step the merchant went to last. */
  at: OnboardingStep;
  /** The furthest step open to the merchant: every step before it was valid when it was left. */
  reached: OnboardingStep;
  /** Every group's answers as typed, without the secret fields. */
  answers: OnboardingApplication;
  /** The last four digits of each secret field that was valid when its step was left. */
  kept: Partial<Record<SecretField, string>>;
}

/** The longest answer a draft keeps (the API's own bound on a field): longer is refused going forward, dropped going back. */
export const MAX_SAVED_ANSWER = 500;

export const isOnboardingStep = (text: string): text is OnboardingStep =>
  (ONBOARDING_STEPS as readonly string[]).includes(text);
export const stepIndex = (step: OnboardingStep) => ONBOARDING_STEPS.indexOf(step);
const stepAt = (index: number): OnboardingStep =>
  ONBOARDING_STEPS[Math.max(0, Math.min(index, ONBOARDING_STEPS.length - 1))]!;

/** A new draft: the partner's prefill of the business details, the first step. */
export function newDraft(prefill: Record<string, string | undefined>): OnboardingDraft {
  return {
    at: 'business',
    reached: 'business',
    answers: { BusinessInfo: { ...prefill }, OwnerInfo: {}, BankingInfo: {}, ProcessingInfo: {} },
    kept: {},
  };
}

/** A draft read back from storage, or null when it is not one this version wrote. */
export function parseDraft(text: string): OnboardingDraft | null {
  try {
    const value = JSON.parse(text) as Partial<OnboardingDraft>;
    if (
      !value ||
      typeof value !== 'object' ||
      !isOnboardingStep(String(value.at)) ||
      !isOnboardingStep(String(value.reached))
    )
      return null;
    const answers = value.answers as Partial<OnboardingApplication> | undefined;
    return {
      at: value.at!,
      reached: value.reached!,
      answers: {
        BusinessInfo: { ...answers?.BusinessInfo },
        OwnerInfo: { ...answers?.OwnerInfo },
        BankingInfo: { ...answers?.BankingInfo },
        ProcessingInfo: { ...answers?.ProcessingInfo },
      },
      kept: { ...value.kept },
    };
  } catch {
    return null;
  }
}

/** May the merchant open this step: any step up to the furthest reached. */
export const canOpen = (draft: OnboardingDraft, step: OnboardingStep) => stepIndex(step) <= stepIndex(draft.reached);

/** The secret fields of a draft that stand without being typed again. */
export const keptFields = (draft: OnboardingDraft): ReadonlySet<string> => new Set(Object.keys(draft.kept));

export interface StepOutcome {
  draft: OnboardingDraft;
  /** Empty when the step may be left forward. */
  errors: FieldError[];
}

/**
 * One step's answers as posted, saved into the draft. Going `forward` checks the step (its errors keep the merchant
 * on it); going `back` keeps what was typed, valid or not. A secret field is kept only as its last four digits, and
 * only when valid; left empty, the one kept before stands.
 */
export function saveStep(
  draft: OnboardingDraft,
  step: AnswerStep,
  posted: Record<string, string | undefined>,
  direction: 'forward' | 'back',
  today: string,
): StepOutcome {
  const group = STEP_GROUPS[step];
  const values: Record<string, string | undefined> = {};
  for (const name of Object.keys(ONBOARDING_FIELDS[group])) values[name] = posted[name]?.trim() || undefined;
  const kept = { ...draft.kept };
  const secrets = SECRET_FIELDS.filter((field) => field.startsWith(`${group}.`));
  // A secret typed again replaces the kept one; it is checked as the step's other fields are.
  const stillKept = new Set(secrets.filter((field) => kept[field] !== undefined && !values[field.split('.')[1]!]));
  const errors = validateGroup(group, values, today, stillKept);
  for (const field of secrets) {
    const typed = values[field.split('.')[1]!];
    if (typed && !errors.some((e) => e.field === field)) kept[field] = lastFour(typed);
  }
  for (const [name, value] of Object.entries(values)) {
    if (value && value.length > MAX_SAVED_ANSWER && !errors.some((e) => e.field === `${group}.${name}`)) {
      errors.push({
        field: `${group}.${name}`,
        message: `${group}.${name} must be at most ${MAX_SAVED_ANSWER} characters.`,
      });
    }
  }
  const savedAnswers = Object.entries(values).filter(
    ([name, value]) =>
      value !== undefined && !secrets.includes(`${group}.${name}` as SecretField) && value.length <= MAX_SAVED_ANSWER,
  );
  const answers = { ...draft.answers, [group]: Object.fromEntries(savedAnswers) };
  if (direction === 'back') {
    return { draft: { ...draft, answers, kept, at: stepAt(stepIndex(step) - 1) }, errors: [] };
  }
  if (errors.length > 0) return { draft: { ...draft, answers, kept, at: step }, errors };
  const next = stepAt(stepIndex(step) + 1);
  const reached = stepIndex(next) > stepIndex(draft.reached) ? next : draft.reached;
  return { draft: { answers, kept, at: next, reached }, errors: [] };
}
