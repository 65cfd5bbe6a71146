import type { Store } from '../store/store.ts';
import type { MerchantAccount } from '../store/merchants.ts';
import type { WidgetSettingsRow } from '../store/widgets.ts';
import { forbidden, invalid, unauthenticated } from '../domain/refusals.ts';
import { digest, newId, newToken } from '../platform/secrets.ts';
import { createPaymentRequest } from './payment-requests.ts';
import { isEmail } from '../domain/contact.ts';
import { isoInstant } from '../domain/instants.ts';
import { generatedOrderId } from '../domain/order-reference.ts';
import { WIDGET_DEFAULT_COLOUR } from '../domain/brand-colours.ts';
import { logoView, storeLogo, type LogoView } from './branding.ts';
import {
  grantedFeatures,
  missingFeature,
  storedFeatures,
  type WidgetFeature,
  type WidgetFeatures,
} from '../domain/widget-features.ts';

const WIDGET_SESSION_TTL_MS = 15 * 60 * 1000;
export const UNKNOWN_PUBLIC_KEY = 'Unknown public key.';
export const BAD_SESSION = 'The session token is missing, expired or not valid: ask your server for a new one.';

export interface WidgetSettings {
  button_label: string;
  primary_color: string;
  text_color: string;
  allowed_origins: string[];
  /** Whether shoppers get receipts after payments, refunds and voids. */
  receipts_enabled: boolean;
}

const DEFAULTS: WidgetSettings = {
  button_label: 'Pay',
  primary_color: WIDGET_DEFAULT_COLOUR,
  text_color: '#ffffff',
  allowed_origins: [],
  receipts_enabled: true,
};

export function settingsOf(row: WidgetSettingsRow | undefined): WidgetSettings {
  if (!row) return DEFAULTS;
  return {
    button_label: row.button_label,
    primary_color: row.primary_color,
    text_color: row.text_color,
    allowed_origins: JSON.parse(row.allowed_origins) as string[],
    receipts_enabled: row.receipts_enabled !== 0,
  };
}

const COLOR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** An exact origin, e.g. https://shop.example or http://localhost:5173: no path, no trailing slash. */
function readOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`allowed_origins: "${text}" is not an origin such as https://shop.example.`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== text.replace(/\/$/, '')) {
    throw invalid(`allowed_origins: "${text}" must be an http(s) origin without a path, e.g. https://shop.example.`);
  }
  return url.origin;
}

/**
 * PUT /widgets/: what the widgets show, which pages may use them, and the merchant's logo on its hosted pages
 * (base64; null removes it). Fields not given keep their value.
 */
export async function updateWidgetSettings(
  store: Store,
  merchant: MerchantAccount,
  input: Partial<WidgetSettings> & { logo?: string | null | undefined },
  now: Date,
  publicUrl: string,
): Promise<WidgetSettings & { logo: LogoView | null }> {
  const row = await store.widgets.settings(merchant.id);
  const current = settingsOf(row);
  const label = input.button_label?.trim();
  if (label !== undefined && (label.length === 0 || label.length > 40))
    throw invalid('button_label must be 1 to 40 characters.');
  for (const [name, value] of [
    ['primary_color', input.primary_color],
    ['text_color', input.text_color],
  ] as const) {
    if (value !== undefined && !COLOR.test(value)) throw invalid(`${name} must be a hex colour such as #4f46e5.`);
  }
  if (input.allowed_origins !== undefined && input.allowed_origins.length > 20)
    throw invalid('allowed_origins may list at most 20 origins.');
  const next: WidgetSettings = {
    button_label: label ?? current.button_label,
    primary_color: input.primary_color ?? current.primary_color,
    text_color: input.text_color ?? current.text_color,
    allowed_origins: input.allowed_origins
      ? [...new Set(input.allowed_origins.map(readOrigin))]
      : current.allowed_origins,
    receipts_enabled: input.receipts_enabled ?? current.receipts_enabled,
  };
  const logo = typeof input.logo === 'string' ? await storeLogo(store, input.logo, now) : input.logo;
  const logoHash = logo === undefined ? (row?.logo_hash ?? null) : (logo?.hash ?? null);
  await store.widgets.saveSettings({
    merchant_id: merchant.id,
    ...next,
    allowed_origins: JSON.stringify(next.allowed_origins),
    receipts_enabled: next.receipts_enabled ? 1 : 0,
    logo_hash: logoHash,
    updated_at: isoInstant(now),
  });
  const facts = logoHash ? await store.branding.logoFacts(logoHash) : undefined;
  return { ...next, logo: facts ? logoView(facts, publicUrl) : null };
}

/** POST /widgets/sessions: a short-lived token for the transactions table, read-only unless features are granted. */
export async function createWidgetSession(
  store: Store,
  merchant: MerchantAccount,
  requested: Partial<WidgetFeatures> | undefined,
  now: Date,
) {
  const token = newToken('wst_');
  const sessionId = newId('wss_');
  const features = grantedFeatures(requested);
  const expiresAt = isoInstant(now, WIDGET_SESSION_TTL_MS);
  await store.widgets.insertSession({
    token_hash: digest(token),
    id: sessionId,
    merchant_id: merchant.id,
    features: JSON.stringify(features),
    expires_at: expiresAt,
    created_at: isoInstant(now),
  });
  return { session_token: token, expires_at: expiresAt, session_id: sessionId, features };
}

/** A valid session: whose, its id (null for one made before sessions had ids) and what it may do. */
export interface WidgetSession {
  merchantId: string;
  sessionId: string | null;
  features: WidgetFeatures;
}

/** The digest of the session token an `Authorization: Bearer` header carries, or undefined when it carries none. */
export function sessionTokenDigest(authorization: string | undefined): string | undefined {
  const token = /^Bearer\s+(wst_[\w-]+)$/.exec(authorization ?? '')?.[1];
  return token ? digest(token) : undefined;
}

/** The session a session token (its digest) names; 401 otherwise. */
export async function sessionOf(store: Store, tokenDigest: string | undefined, now: Date): Promise<WidgetSession> {
  const row = tokenDigest ? await store.widgets.session(tokenDigest, isoInstant(now)) : undefined;
  if (!row) throw unauthenticated(BAD_SESSION);
  return { merchantId: row.merchant_id, sessionId: row.id, features: storedFeatures(row.features) };
}

/** 403 unless the session was granted `feature`. */
export function requireFeature(session: WidgetSession, feature: WidgetFeature): void {
  if (!session.features[feature]) throw forbidden(missingFeature(feature));
}

/**
 * Whether a page at `origin` may call this merchant's widget API: one of its allowed origins; with none set,
 * any page in the sandbox and none in production.
 */
export function originAllowed(settings: WidgetSettings, origin: string, sandbox: boolean): boolean {
  return settings.allowed_origins.length === 0 ? sandbox : settings.allowed_origins.includes(origin);
}

const widgetOrderId = () => generatedOrderId(newToken(''));

/** A pay link made by a merchant's public key (the pay button): its own order id unless the page gives one. */
export function createWidgetPayLink(
  store: Store,
  merchant: MerchantAccount,
  input: {
    amount: string | number;
    order_id?: string | undefined;
    description?: string | undefined;
    receipt_email?: string | undefined;
  },
  options: { now: Date; publicUrl: string; minimumPayment?: number | undefined },
) {
  const { receipt_email, ...request } = input;
  const receiptEmail = receipt_email?.trim() || undefined;
  if (receiptEmail && !isEmail(receiptEmail))
    throw invalid(
      `receipt_email "${receiptEmail}" is not an e-mail address: send one such as name@example.com, or none.`,
    );
  return createPaymentRequest(
    store,
    merchant,
    { ...request, order_id: request.order_id ?? widgetOrderId() },
    { source: 'pay_link', ...options, receiptEmail },
  );
}

/** A pay link texted to a phone by a merchant's public key (the request button), within the texts a phone may get. */
export function createWidgetPaymentRequest(
  store: Store,
  merchant: MerchantAccount,
  input: { amount: string | number; recipient_phone: string; order_id?: string | undefined },
  options: { now: Date; publicUrl: string; minimumPayment?: number | undefined },
) {
  return createPaymentRequest(
    store,
    merchant,
    { amount: input.amount, phone_number: input.recipient_phone, order_id: input.order_id ?? widgetOrderId() },
    { source: 'pay_link', textsPerPhonePerHour: WIDGET_TEXTS_PER_PHONE_PER_HOUR, ...options },
  );
}

/** Texts a public key may send one phone for its merchant in an hour: a shopper asks again, a script does not. */
export const WIDGET_TEXTS_PER_PHONE_PER_HOUR = 5;

/**
 * Why a public-key call that makes something (a pay link, a text) must be refused, or null. CORS only hides
 * answers from other sites' pages; this refuses the call itself. A browser always sends `Origin` with such a call;
 * a request without one is not a widget's, unless the merchant allows any origin (the sandbox with no list).
 */
export function widgetWriteRefusal(
  settings: WidgetSettings,
  origin: string | undefined,
  sandbox: boolean,
): string | null {
  if (settings.allowed_origins.length === 0) {
    return sandbox
      ? null
      : 'This merchant has no allowed origins yet: set allowed_origins with PUT /widgets/ before its widgets take payments in production.';
  }
  if (!origin) return 'Widget calls come from a web page, with an Origin header; this one has none.';
  return settings.allowed_origins.includes(origin)
    ? null
    : `The page origin ${origin} is not among this merchant's allowed origins (PUT /widgets/).`;
}
