import { Type } from 'typebox';
import { Body, Envelope, Instant } from './envelope.ts';
import { MAX_LOGO_BYTES } from '../domain/logo-image.ts';

/** A body with a logo: its base64 (4/3 of the image) and the rest of the fields. */
export const BRANDING_BODY_LIMIT_BYTES = Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 16 * 1024;

const LOGO_BASE64_LENGTH = Math.ceil(MAX_LOGO_BYTES / 3) * 4;

export const LogoInput = Type.Union([
  Type.String({
    minLength: 1,
    maxLength: LOGO_BASE64_LENGTH,
    description:
      'The image file in base64: PNG, JPEG or WebP, at most 200 KB and 4000 px a side (SVG is not taken). null removes it.',
  }),
  Type.Null(),
]);

export const BrandColour = (description: string) =>
  Type.Union([Type.String({ maxLength: 7, description: `${description}: #rrggbb.` }), Type.Null()]);

export const LogoAnswer = Type.Union([
  Type.Object({
    url: Type.String({
      description: 'Served by the service; the URL changes with the image, which is cached for a year.',
    }),
    content_type: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
  }),
  Type.Null(),
]);

export const ClientBrandingBody = Body(
  {
    name: Type.Optional(
      Type.Union([
        Type.String({ minLength: 1, maxLength: 80, description: "The platform's name, heading its onboarding form." }),
        Type.Null(),
      ]),
    ),
    primary_color: Type.Optional(
      BrandColour('The button and header colour of the hosted pages (links too, where readable)'),
    ),
    logo: Type.Optional(LogoInput),
  },
  { description: 'Fields not given keep their value; null removes one.' },
);

export const ClientBrandingAnswer = Envelope(
  Type.Object({
    name: Type.Union([Type.String(), Type.Null()]),
    primary_color: Type.Union([Type.String(), Type.Null()]),
    logo: LogoAnswer,
    updated_at: Type.Union([Instant, Type.Null()]),
  }),
);
