import type { OperationExample } from './operation-example.ts';
import { SERVICE, callWithBody, code } from './story.ts';

/** A platform brands its merchants' hosted pages once: its name, its colour, its logo (a PNG here, in base64). */
const LOGO_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFQ5EAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const BRANDING = {
  name: 'Harbor Commerce',
  primary_color: '#1d4ed8',
  logo: {
    url: `${SERVICE}/brand-logos/d11293dcb37ad85d1fca6b2bcc07f65ff81ea86fa83d9bc68c0be5cbc3ea4ea5.png`,
    content_type: 'image/png',
    width: 1,
    height: 1,
  },
  updated_at: '2026-03-10T15:02:11.204Z',
};

export const BRANDING_EXAMPLES: Record<string, OperationExample> = {
  'PUT /client/branding': callWithBody(
    {
      body: { name: 'Harbor Commerce', primary_color: '#1d4ed8', logo: LOGO_BASE64 },
      answer: { result: true, message: 'Branding updated.', data: BRANDING },
    },
    'const branding = await paykit.branding.update',
  ),
  'GET /client/branding': {
    answer: { result: true, message: 'Branding retrieved.', data: BRANDING },
    client: code`
      const branding = await paykit.branding.get();
    `,
  },
};
