/** What a widget session may do beyond reading (issue 32): granted by the merchant's server when it mints the token. */
const WIDGET_FEATURES = ['refunds', 'voids', 'captures', 'export', 'receipts', 'payouts', 'disputes'] as const;
export type WidgetFeature = (typeof WIDGET_FEATURES)[number];
export type WidgetFeatures = Record<WidgetFeature, boolean>;

/** Every feature named, each granted only when given as `true`: anything else is read-only. */
export function grantedFeatures(requested: Partial<Record<string, unknown>> | undefined): WidgetFeatures {
  return Object.fromEntries(WIDGET_FEATURES.map((f) => [f, requested?.[f] === true])) as WidgetFeatures;
}

/** The features stored with a session, as JSON; a session from before features existed, or unreadable text, grants none. */
export function storedFeatures(json: string): WidgetFeatures {
  try {
    const parsed: unknown = JSON.parse(json);
    return grantedFeatures(parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined);
  } catch {
    return grantedFeatures(undefined);
  }
}

export const missingFeature = (feature: WidgetFeature) =>
  `This session token does not allow ${feature}: the merchant's server grants it with features.${feature} when it creates the session (POST /widgets/sessions).`;
