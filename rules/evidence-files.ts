/**
 * The evidence files a dispute takes, shared by the console (which checks a file before it sends it) and the service:
 * a PDF, PNG or JPEG as its first bytes say, whatever its name says, up to 5 MB each and 10 in all, under a plain
 * name that the service can keep and serve back.
 */
export const MAX_EVIDENCE_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_EVIDENCE_FILES = 10;
export type EvidenceFileType = 'application/pdf' | 'image/png' | 'image/jpeg';

const SIGNATURES: [EvidenceFileType, number[]][] = [
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
];

/** The type of a file by its bytes: PDF, PNG or JPEG; undefined for anything else (SVG, HTML, a zip). */
export function sniffEvidenceType(bytes: Uint8Array): EvidenceFileType | undefined {
  return SIGNATURES.find(([, signature]) => signature.every((byte, i) => bytes[i] === byte))?.[0];
}

/** 1 to 100 characters, no path, control character or leading dot, and a .pdf, .png, .jpg or .jpeg extension. */
export function isSafeFilename(name: string): boolean {
  return (
    name.length >= 1 &&
    name.length <= 100 &&
    !name.startsWith('.') &&
    !/[/\\:*?"<>|]/.test(name) &&
    ![...name].some((char) => char < ' ' || char === '\u007f') &&
    /\.(pdf|png|jpe?g)$/i.test(name)
  );
}
