/**
 * The shape of one language's module: each element's texts by key. The keys are not named here: naming them would
 * import the elements, which load these modules (a circle); test/elements/locale-keys.check.ts holds every language
 * to exactly the keys of every element.
 */
export type ElementTexts = 'payButton' | 'requestPaymentButton' | 'transactionsTable';

export type LocaleTexts = Record<ElementTexts, Record<string, string>>;
