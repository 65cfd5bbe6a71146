/**
 * A brand colour on the hosted pages, kept readable (WCAG 2): the colour fills the pay button and the header's
 * rule, with black or white text, whichever contrasts more (for any colour one of them reaches 4.58:1); it colours
 * links and focus rings only in a scheme (light, dark) where it reaches 4.5:1 against that scheme's backgrounds,
 * else the page's own accent stays there.
 */
const BRAND_COLOUR = /^#[0-9a-f]{6}$/;

/** The page's backgrounds (body and cards) in each scheme, as layout.ts draws them. */
const BACKGROUNDS = { light: ['#f6f7f9', '#ffffff'], dark: ['#121316', '#1c1d22'] } as const;
const MIN_TEXT_CONTRAST = 4.5;

function luminance(colour: string): number {
  const channel = (at: number) => {
    const value = parseInt(colour.slice(at, at + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The WCAG contrast ratio of two #rrggbb colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export interface BrandPalette {
  /** Fills the pay button and the header's rule. */
  fill: string;
  /** The text on `fill`. */
  onFill: string;
  /** Links and focus rings in the light scheme, when readable there. */
  lightAccent: string | undefined;
  /** Links and focus rings in the dark scheme, when readable there. */
  darkAccent: string | undefined;
}

export function brandPalette(colour: string): BrandPalette {
  const lower = colour.toLowerCase();
  const onFill = contrast(lower, '#000000') > contrast(lower, '#ffffff') ? '#000000' : '#ffffff';
  const readableOn = (scheme: keyof typeof BACKGROUNDS) =>
    BACKGROUNDS[scheme].every((background) => contrast(lower, background) >= MIN_TEXT_CONTRAST) ? lower : undefined;
  return { fill: lower, onFill, lightAccent: readableOn('light'), darkAccent: readableOn('dark') };
}

/** The pay button's colour when a merchant chose none (services/widgets.ts): not a brand of the merchant's. */
export const WIDGET_DEFAULT_COLOUR = '#4f46e5';

/** A brand colour as given (#rrggbb, either case), lower-cased; undefined when it is not one. */
export function readBrandColour(text: string): string | undefined {
  const lower = text.toLowerCase();
  return BRAND_COLOUR.test(lower) ? lower : undefined;
}
