/**
 * How the script tag is delivered: the loader (`/paykit.js`, short max-age, revalidated with its ETag) and the
 * content-hashed modules under `/paykit/` (cached for a year), each precompressed in brotli and gzip and sent in
 * the encoding the browser accepts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startService, type TestService } from '../../support/service.ts';
import type { Answer } from '../../support/http.ts';

describe('the script tag on the wire', () => {
  let service: TestService;
  let loader: string;
  let files: Record<string, string[]>;
  before(async () => {
    service = await startService();
    loader = (await service.request('GET', '/paykit.js')).text;
    files = {};
    for (const tag of ['pay-button', 'request-payment-button', 'transactions-table']) {
      files[tag] = JSON.parse(new RegExp(`"${tag}":(\\[[^\\]]*\\])`).exec(loader)![1]!);
    }
  });
  after(() => service.close());

  const get = (path: string, headers: Record<string, string> = {}) => service.request('GET', path, { headers });

  /** The body as the browser reads it, after undoing the answer's content-encoding. */
  function decoded(answer: Answer): string {
    const encoding = answer.headers['content-encoding'];
    const bytes =
      encoding === 'br'
        ? brotliDecompressSync(answer.bytes)
        : encoding === 'gzip'
          ? gunzipSync(answer.bytes)
          : answer.bytes;
    return bytes.toString('utf8');
  }

  test('the loader carries the pay button, and names, per other element, its module and every file that module imports', async () => {
    assert.deepEqual(files['pay-button'], [], 'nothing to fetch for a pay button');
    assert.ok(loader.includes('pay-error'), 'the pay button is in the loader');
    for (const tag of ['request-payment-button', 'transactions-table']) {
      const names = files[tag]!;
      assert.match(names[0]!, new RegExp(`^${tag}-\\w{8}\\.js$`), `${tag}'s own module first`);
      for (const name of names) assert.match(name, /^[\w-]+-\w{8}\.js$/, 'every file is named by its content hash');
      const module = decoded(await get(`/paykit/${names[0]}`));
      assert.match(module, /from"\.\.\/paykit\.js"/, `${tag} takes Lit and the elements' base from the loader`);
      assert.ok(!module.includes('adoptedStyleSheets'), `${tag} has no Lit of its own`);
    }
  });

  test('/paykit.json lists the same files, for a page’s server to write modulepreload hints', async () => {
    const answer = await get('/paykit.json', { 'accept-encoding': 'gzip' });
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^application\/json/);
    assert.equal(answer.headers['cache-control'], 'public, max-age=60');
    const manifest = JSON.parse(decoded(answer));
    assert.deepEqual(manifest.elements, files);
    assert.match(manifest.hydration[0], /^hydration-\w{8}\.js$/);
    const hydration = decoded(await get(`/paykit/${manifest.hydration[0]}`));
    assert.match(
      hydration,
      /import\{LitElement as \w+\}from"\.\.\/paykit\.js"/,
      'Lit’s hydration support goes to the loader’s Lit, which the elements extend',
    );
    assert.equal(
      (await get('/paykit.json', { 'accept-encoding': 'gzip', 'if-none-match': String(answer.headers.etag) })).status,
      304,
    );
  });

  test('each language’s texts are a file of their own, which the loader fetches beside the elements on a page in that language', async () => {
    const { languages } = JSON.parse(decoded(await get('/paykit.json'))) as { languages: Record<string, string[]> };
    assert.deepEqual(Object.keys(languages).sort(), ['de', 'es', 'fr']);
    const verbs: Record<string, string> = { es: 'Pagar', fr: 'Payer', de: 'Bezahlen' };
    for (const [language, [file]] of Object.entries(languages) as [string, string[]][]) {
      assert.ok(
        decoded(await get(`/paykit/${file}`)).includes(`"${verbs[language]}"`),
        `${file} holds the ${language} texts`,
      );
      assert.ok(loader.includes(file!), `the loader names ${file}`);
    }
    const texts = Object.values(languages).map(([file]) => file);
    assert.deepEqual(
      Object.values(files)
        .flat()
        .filter((file) => texts.includes(file)),
      [],
      'an English page fetches none of them',
    );
  });

  for (const path of ['/paykit.js', 'a hashed module']) {
    test(`${path} comes in brotli, gzip or as it is, by Accept-Encoding, with an ETag for each`, async () => {
      const url = path === '/paykit.js' ? path : `/paykit/${files['transactions-table']![0]}`;
      const plain = await get(url);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: the file as it is');
      assert.equal(plain.headers.vary, 'Accept-Encoding');
      assert.equal(plain.headers['access-control-allow-origin'], '*');
      assert.match(String(plain.headers['content-type']), /^text\/javascript/);
      const tags = new Set([plain.headers.etag]);
      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
        ['br;q=0.5, gzip;q=0.9', 'gzip'],
        ['deflate', undefined],
        ['identity', undefined],
      ] as const) {
        const answer = await get(url, { 'accept-encoding': accept });
        assert.equal(answer.status, 200, accept);
        assert.equal(answer.headers['content-encoding'], encoding, accept);
        assert.equal(answer.headers.vary, 'Accept-Encoding');
        assert.equal(decoded(answer), plain.text, `${accept}: the same file`);
        if (encoding)
          assert.ok(
            answer.bytes.length < plain.bytes.length * 0.6,
            `${encoding} is smaller (${answer.bytes.length} of ${plain.bytes.length})`,
          );
        tags.add(answer.headers.etag);
      }
      assert.equal(tags.size, 3, 'one ETag per encoding');
      for (const tag of tags) assert.match(String(tag), /^"[\w-]+"$/);
    });
  }

  test('the loader is cached briefly and revalidated: a matching If-None-Match gets a 304 without a body', async () => {
    const first = await get('/paykit.js', { 'accept-encoding': 'br' });
    assert.equal(first.headers['cache-control'], 'public, max-age=60');
    const again = await get('/paykit.js', { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.bytes.length, 0);
    assert.equal(again.headers.etag, first.headers.etag);
    assert.equal(again.headers['cache-control'], 'public, max-age=60');
    assert.equal(
      (await get('/paykit.js', { 'accept-encoding': 'br', 'if-none-match': `W/${first.headers.etag}, "other"` }))
        .status,
      304,
      'weak and listed tags match',
    );
    assert.equal(
      (await get('/paykit.js', { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) })).status,
      200,
      'another encoding is another representation',
    );
    assert.equal((await get('/paykit.js', { 'if-none-match': '"stale"' })).status, 200);
  });

  test('every hashed file is immutable for a year and answers If-None-Match with a 304', async () => {
    const names = new Set(Object.values(files).flat());
    for (const name of names) {
      const answer = await get(`/paykit/${name}`, { 'accept-encoding': 'br' });
      assert.equal(answer.status, 200, name);
      assert.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable', name);
      assert.equal(answer.headers['content-encoding'], 'br');
      assert.equal(
        (await get(`/paykit/${name}`, { 'accept-encoding': 'br', 'if-none-match': String(answer.headers.etag) }))
          .status,
        304,
      );
    }
  });

  test('a module name from an earlier build leads to the current module; other unknown names are 404', async () => {
    const stale = await get('/paykit/transactions-table-OLDHASH1.js');
    assert.equal(stale.status, 307);
    assert.equal(stale.headers.location, files['transactions-table']![0]);
    assert.equal(stale.headers['cache-control'], 'no-store');
    assert.equal(
      (await get('/paykit/pay-button-OLDHASH1.js')).status,
      404,
      'the pay button has no module of its own any more',
    );
    assert.equal((await get('/paykit/chunk-OLDHASH1.js')).status, 404);
    assert.equal((await get('/paykit/../server/main.ts')).status, 404);
    assert.equal((await get('/paykit/')).status, 404);
  });
});
