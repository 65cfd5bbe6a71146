import { test } from 'node:test';
import assert from 'node:assert/strict';
import QRCode from 'qrcode';
import { LOGO_PROBLEMS, MAX_LOGO_BYTES, decodeLogo, readLogo } from '../../server/domain/logo-image.ts';
import { brandPalette, contrast, readBrandColour } from '../../server/domain/brand-colours.ts';
import { generatedOrderId, shopperOrderReference } from '../../server/domain/order-reference.ts';

/** A JPEG's first segments: SOI, an APP0 of 16 bytes, then a baseline frame header of 40 × 30. */
const jpeg = Buffer.from([
  0xff,
  0xd8,
  0xff,
  0xe0,
  0x00,
  0x10,
  ...Buffer.from('JFIF\0'),
  1,
  1,
  0,
  0,
  1,
  0,
  1,
  0,
  0,
  0xff,
  0xc0,
  0x00,
  0x11,
  0x08,
  0x00,
  30,
  0x00,
  40,
  0x03,
  1,
  0x22,
  0,
  2,
  0x11,
  1,
  3,
  0x11,
  1,
  0xff,
  0xd9,
]);

/** A WebP of the extended format (VP8X) of 300 × 120. */
function webpExtended(): Buffer {
  const bytes = Buffer.alloc(40);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(32, 4);
  bytes.write('WEBPVP8X', 8, 'latin1');
  bytes.writeUInt32LE(10, 16);
  bytes.writeUIntLE(299, 24, 3);
  bytes.writeUIntLE(119, 27, 3);
  return bytes;
}

test('a logo is a PNG, JPEG or WebP by its bytes, with its size from its header', async () => {
  const png = await QRCode.toBuffer('logo', { type: 'png', width: 120, margin: 0 });
  const read = readLogo(png);
  assert.equal('problem' in read ? read.problem : read.contentType, 'image/png');
  assert.ok(!('problem' in read) && read.width === read.height && read.width >= 100);
  assert.deepEqual(readLogo(jpeg), { contentType: 'image/jpeg', width: 40, height: 30 });
  assert.deepEqual(readLogo(webpExtended()), { contentType: 'image/webp', width: 300, height: 120 });
});

test('anything else is refused: SVG, HTML, text, an empty file, a header that lies, too large', () => {
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  for (const bytes of [
    svg,
    Buffer.from('<html><body>hi</body></html>'),
    Buffer.from('GIF89a\x01\x00\x01\x00'),
    jpeg.subarray(0, 12),
  ]) {
    assert.deepEqual(readLogo(bytes), { problem: LOGO_PROBLEMS.notImage });
  }
  assert.deepEqual(readLogo(Buffer.alloc(0)), { problem: LOGO_PROBLEMS.empty });
  const huge = Buffer.concat([jpeg, Buffer.alloc(MAX_LOGO_BYTES)]);
  assert.deepEqual(readLogo(huge), { problem: LOGO_PROBLEMS.tooLarge });
  const wide = webpExtended();
  wide.writeUIntLE(9999, 24, 3);
  assert.deepEqual(readLogo(wide), { problem: LOGO_PROBLEMS.size });
  assert.deepEqual(decodeLogo('not base64!'), { problem: LOGO_PROBLEMS.base64 });
  assert.deepEqual(decodeLogo('data:image/png;base64,AAAA'), { problem: LOGO_PROBLEMS.base64 });
  assert.ok(Buffer.isBuffer(decodeLogo(jpeg.toString('base64'))));
});

test('a brand colour fills the button with the text that reads on it, and colours links only where they read', () => {
  assert.equal(readBrandColour('#1D4ED8'), '#1d4ed8');
  for (const bad of ['#1d4ed', 'blue', '#1d4ed8;}', '#ggg000']) assert.equal(readBrandColour(bad), undefined, bad);
  assert.equal(Math.round(contrast('#000000', '#ffffff')), 21);
  const blue = brandPalette('#1d4ed8');
  assert.deepEqual(
    [blue.onFill, blue.lightAccent, blue.darkAccent],
    ['#ffffff', '#1d4ed8', undefined],
    'dark blue: no link colour on a dark page',
  );
  const yellow = brandPalette('#ffd400');
  assert.deepEqual(
    [yellow.onFill, yellow.lightAccent, yellow.darkAccent],
    ['#000000', undefined, '#ffd400'],
    'yellow: black text, links only on dark',
  );
  for (const colour of ['#777777', '#ff0000', '#00ff00', '#4f46e5', '#000000', '#ffffff']) {
    const palette = brandPalette(colour);
    assert.ok(contrast(palette.fill, palette.onFill) >= 4.5, `${colour}: button text reads`);
  }
});

test("an order id the service made for a pay button is not the shopper's reference", () => {
  assert.equal(shopperOrderReference(generatedOrderId('6A2GX2EzpBeePQ6pXXXXXXXX')), undefined);
  assert.equal(shopperOrderReference('w_6A2GX2EzpBeePQ6p'), undefined);
  for (const given of ['order-1050', 'w_short', 'W_6A2GX2EzpBeePQ6p', 'w_6A2GX2EzpBeePQ6p7'])
    assert.equal(shopperOrderReference(given), given);
});
