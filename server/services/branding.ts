import { createHash } from 'node:crypto';
import type { Store } from '../store/store.ts';
import type { LogoFacts } from '../store/branding.ts';
import type { WidgetSettingsRow } from '../store/widgets.ts';
import { invalid } from '../domain/refusals.ts';
import { isoInstant } from '../domain/instants.ts';
import { WIDGET_DEFAULT_COLOUR, readBrandColour } from '../domain/brand-colours.ts';
import { LOGO_EXTENSIONS, decodeLogo, readLogo, type LogoType } from '../domain/logo-image.ts';
import type { Brand } from '../domain/brand.ts';

/** Where the service serves a logo: its content's hash, so the URL changes with it and may be cached for good. */
export const LOGO_PATH = '/brand-logos/';
const logoPath = (logo: Pick<LogoFacts, 'hash' | 'content_type'>) =>
  `${LOGO_PATH}${logo.hash}.${LOGO_EXTENSIONS[logo.content_type as LogoType]}`;

/** A logo as the API shows it. */
export interface LogoView {
  url: string;
  content_type: string;
  width: number;
  height: number;
}

export const logoView = (logo: LogoFacts, publicUrl: string): LogoView => ({
  url: `${publicUrl}${logoPath(logo)}`,
  content_type: logo.content_type,
  width: logo.width,
  height: logo.height,
});

/** Keeps a logo sent as base64 (checked: domain/logo-image.ts) and answers its facts; 400 when it is no logo. */
export async function storeLogo(store: Store, base64: string, now: Date): Promise<LogoFacts> {
  const bytes = decodeLogo(base64);
  if (!Buffer.isBuffer(bytes)) throw invalid(bytes.problem);
  const image = readLogo(bytes);
  if ('problem' in image) throw invalid(image.problem);
  const facts = {
    hash: createHash('sha256').update(bytes).digest('hex'),
    content_type: image.contentType,
    width: image.width,
    height: image.height,
    created_at: isoInstant(now),
  };
  await store.branding.saveLogo({ ...facts, bytes });
  return facts;
}

/** A brand colour from the API: #rrggbb (either case), or null to remove it. */
function brandColourInput(name: string, value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const colour = readBrandColour(value);
  if (!colour) throw invalid(`${name} must be a colour as #rrggbb, e.g. #2f5d50.`);
  return colour;
}

export interface ClientBrandingInput {
  name?: string | null | undefined;
  primary_color?: string | null | undefined;
  /** The image file in base64; null removes the logo. */
  logo?: string | null | undefined;
}

export interface ClientBrandingView {
  name: string | null;
  primary_color: string | null;
  logo: LogoView | null;
  updated_at: string | null;
}

async function viewOf(store: Store, clientId: string, publicUrl: string): Promise<ClientBrandingView> {
  const row = await store.branding.clientBranding(clientId);
  const logo = row?.logo_hash ? await store.branding.logoFacts(row.logo_hash) : undefined;
  return {
    name: row?.name ?? null,
    primary_color: row?.primary_color ?? null,
    logo: logo ? logoView(logo, publicUrl) : null,
    updated_at: row?.updated_at ?? null,
  };
}

/** GET /client/branding: the platform's brand, as its merchants' hosted pages show it unless a merchant has its own. */
export const clientBranding = (store: Store, clientId: string, publicUrl: string) => viewOf(store, clientId, publicUrl);

/** PUT /client/branding: fields not given keep their value, null removes one. */
export async function updateClientBranding(
  store: Store,
  clientId: string,
  input: ClientBrandingInput,
  now: Date,
  publicUrl: string,
): Promise<ClientBrandingView> {
  const name = input.name === undefined || input.name === null ? input.name : input.name.trim();
  if (typeof name === 'string' && (name.length === 0 || name.length > 80))
    throw invalid('name must be 1 to 80 characters.');
  const colour = brandColourInput('primary_color', input.primary_color);
  return store.transaction(async (tx) => {
    const logo = typeof input.logo === 'string' ? await storeLogo(tx, input.logo, now) : input.logo;
    const current = await tx.branding.clientBranding(clientId);
    await tx.branding.saveClientBranding({
      client_id: clientId,
      name: name === undefined ? (current?.name ?? null) : name,
      primary_color: colour === undefined ? (current?.primary_color ?? null) : colour,
      logo_hash: logo === undefined ? (current?.logo_hash ?? null) : (logo?.hash ?? null),
      updated_at: isoInstant(now),
    });
    return viewOf(tx, clientId, publicUrl);
  });
}

/** The merchant's own colour: the pay button's, unless it is still the default, which is no choice of theirs. */
function merchantColour(settings: WidgetSettingsRow | undefined): string | undefined {
  const colour =
    settings &&
    readBrandColour(settings.primary_color.length === 4 ? expandShort(settings.primary_color) : settings.primary_color);
  return colour && colour !== WIDGET_DEFAULT_COLOUR ? colour : undefined;
}

/** #abc → #aabbcc (the widget settings take both forms). */
const expandShort = (colour: string) => `#${[...colour.slice(1)].map((c) => c + c).join('')}`;

async function pageLogo(store: Store, hash: string | null | undefined): Promise<Brand['logo']> {
  const logo = hash ? await store.branding.logoFacts(hash) : undefined;
  return logo && { url: logoPath(logo), width: logo.width, height: logo.height };
}

/**
 * The brand of a merchant's hosted pages (pay page, outcome, receipt): the merchant's name, its logo and colour
 * where it set them, else its platform's. `known` is the merchant's widget settings when the caller has read them.
 */
export async function merchantBrand(
  store: Store,
  merchant: { id: string; client_id: string; business_name: string },
  known?: WidgetSettingsRow | undefined,
): Promise<Brand> {
  const [settings, platform] = await Promise.all([
    known ?? store.widgets.settings(merchant.id),
    store.branding.clientBranding(merchant.client_id),
  ]);
  return {
    name: merchant.business_name,
    logo: await pageLogo(store, settings?.logo_hash ?? platform?.logo_hash),
    colour: merchantColour(settings) ?? platform?.primary_color ?? undefined,
  };
}

/** The brand of a platform's own hosted pages (the onboarding form, before there is a merchant): its name, logo, colour. */
export async function platformBrand(store: Store, clientId: string): Promise<Brand | undefined> {
  const [platform, client] = await Promise.all([
    store.branding.clientBranding(clientId),
    store.clients.findById(clientId),
  ]);
  const name = platform?.name ?? client?.name;
  if (!name) return undefined;
  return { name, logo: await pageLogo(store, platform?.logo_hash), colour: platform?.primary_color ?? undefined };
}
