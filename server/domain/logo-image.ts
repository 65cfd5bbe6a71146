/**
 * A logo as the hosted pages may show it: PNG, JPEG or WebP, known by its first bytes (never by what the sender
 * says), at most 200 KB, with its size read from its header. SVG is refused: it can carry script.
 */
export const MAX_LOGO_BYTES = 200 * 1024;
const MAX_LOGO_SIDE = 4000;

export type LogoType = 'image/png' | 'image/jpeg' | 'image/webp';
export const LOGO_EXTENSIONS: Record<LogoType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

export interface LogoImage {
  contentType: LogoType;
  width: number;
  height: number;
}

export const LOGO_PROBLEMS = {
  base64: 'logo must be the image file in base64.',
  empty: 'logo is empty.',
  tooLarge: `logo must be at most ${MAX_LOGO_BYTES / 1024} KB.`,
  notImage: 'logo must be a PNG, JPEG or WebP image.',
  size: `logo must be 1 to ${MAX_LOGO_SIDE} pixels wide and high.`,
} as const;

/** The bytes of a base64 text, or a problem: only the standard alphabet, padded, nothing else in it. */
export function decodeLogo(text: string): Buffer | { problem: string } {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text))
    return { problem: LOGO_PROBLEMS.base64 };
  return Buffer.from(text, 'base64');
}

function pngSize(bytes: Buffer): [number, number] | undefined {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (
    bytes.length < 24 ||
    signature.some((byte, i) => bytes[i] !== byte) ||
    bytes.toString('latin1', 12, 16) !== 'IHDR'
  )
    return undefined;
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/** Walks the JPEG's segments to its frame header (SOF0 to SOF15, less DHT, JPG and DAC). */
function jpegSize(bytes: Buffer): [number, number] | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return undefined;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return undefined;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return [bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5)];
    }
    at += 2 + length;
  }
  return undefined;
}

function webpSize(bytes: Buffer): [number, number] | undefined {
  if (bytes.length < 30 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP')
    return undefined;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a) {
    return [bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff];
  }
  if (chunk === 'VP8L' && bytes[20] === 0x2f) {
    const bits = bytes.readUInt32LE(21);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (chunk === 'VP8X') return [bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1];
  return undefined;
}

/** What the bytes are, or why they are no logo. */
export function readLogo(bytes: Buffer): LogoImage | { problem: string } {
  if (bytes.length === 0) return { problem: LOGO_PROBLEMS.empty };
  if (bytes.length > MAX_LOGO_BYTES) return { problem: LOGO_PROBLEMS.tooLarge };
  const found = (
    [
      ['image/png', pngSize],
      ['image/jpeg', jpegSize],
      ['image/webp', webpSize],
    ] as const
  )
    .map(([contentType, size]) => ({ contentType, size: size(bytes) }))
    .find((candidate) => candidate.size);
  if (!found?.size) return { problem: LOGO_PROBLEMS.notImage };
  const [width, height] = found.size;
  if (!(width >= 1 && height >= 1 && width <= MAX_LOGO_SIDE && height <= MAX_LOGO_SIDE))
    return { problem: LOGO_PROBLEMS.size };
  return { contentType: found.contentType, width, height };
}
