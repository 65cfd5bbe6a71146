/**
 * QR codes, loaded only when one is shown: `qrcode` is about 10 KB gzipped, more than an element, so the
 * bundler splits it into its own chunk behind this dynamic import.
 */
export type QrRenderer = (text: string) => Promise<string>;

const loadQrCode: QrRenderer = async (text) => {
  const { default: qrcode } = await import('qrcode');
  return qrcode.toDataURL(text, { margin: 1, width: 176, errorCorrectionLevel: 'M' });
};

/** A data: URL of a PNG QR code for `text` (a live binding: setQrRenderer replaces it). */
export let qrDataUrl: QrRenderer = loadQrCode;

/**
 * Replaces how QR codes are drawn; `undefined` restores `qrcode`. For tests (the test runner serves
 * `qrcode` as the CommonJS it is published as, which a browser cannot import) and for pages that bring
 * their own encoder.
 */
export function setQrRenderer(next: QrRenderer | undefined): void {
  qrDataUrl = next ?? loadQrCode;
}
