/**
 * The declared browser floor (package.json `browserslist`) holds for what ships to browsers:
 * - APIs: every browser source file, compiled to JavaScript, is checked by eslint-plugin-baseline-js (web-features
 *   data) against the floor's Baseline year; a feature that became Baseline later is an error.
 * - Syntax: the script tag is built for the floor's browsers (esbuild lowers what they lack, or fails).
 * The floor is written as `baseline YYYY` (with any narrowing after it): the year is what the API check uses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { Linter } from 'eslint';
import baselineJs from 'eslint-plugin-baseline-js';
import browserslist from 'browserslist';
import { browserFloor, browserTargets, buildScriptTag } from '../../server/script-tag/bundle.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** What runs on a server, never in a browser: the server renderer (the partner's client lives outside src/). */
const SERVER_ONLY = ['src/ssr/'];

function floorYear(): number {
  const years = browserFloor()
    .map((query) => /^baseline (\d{4})$/.exec(query)?.[1])
    .filter(Boolean);
  assert.equal(years.length, 1, 'browserslist names one "baseline YYYY" query, the floor of the API check');
  return Number(years[0]);
}

function browserSources(dir = join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (SERVER_ONLY.some((prefix) => relative(root, path).startsWith(prefix.slice(0, -1)))) return [];
    return entry.isDirectory() ? browserSources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** eslint-plugin-baseline-js's findings in `code` (JavaScript) for features newer than the floor's year. */
function beyondFloor(code: string, year: number): string[] {
  const linter = new Linter({ configType: 'flat' });
  const config: Linter.Config = {
    plugins: { 'baseline-js': { rules: baselineJs.rules } },
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    rules: {
      'baseline-js/use-baseline': [
        'error',
        { available: year, includeWebApis: { preset: 'auto' }, includeJsBuiltins: { preset: 'auto' } },
      ],
    },
  };
  return linter.verify(code, [config]).map((message) => `${message.line}:${message.column} ${message.message}`);
}

test('the floor is declared and resolves to browsers', () => {
  const year = floorYear();
  const browsers = browserslist(browserFloor());
  assert.ok(year >= 2020 && browsers.length > 0, `${browserFloor().join(', ')} → ${browsers.length} browser versions`);
  for (const family of ['chrome', 'edge', 'firefox', 'safari', 'ios_saf'])
    assert.ok(
      browsers.some((b) => b.startsWith(`${family} `)),
      `${family} is covered`,
    );
});

test('the checker reports an API beyond the floor (it is not silently passing everything)', () => {
  const found = beyondFloor(
    'export const signal = AbortSignal.any([a.signal, b.signal]); export const later = Promise.withResolvers();',
    2022,
  );
  assert.equal(found.length, 2, found.join('\n'));
  assert.match(found[0]!, /AbortSignal\.any/);
});

test('no browser source uses an API beyond the floor', async () => {
  const year = floorYear();
  const problems: string[] = [];
  const files = browserSources();
  assert.ok(files.length >= 10, 'the element, loader and shared sources are checked');
  for (const file of files) {
    const { code } = await transform(readFileSync(file, 'utf8'), {
      loader: 'ts',
      format: 'esm',
      target: 'esnext',
      tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } },
    });
    for (const problem of beyondFloor(code, year)) problems.push(`${relative(root, file)} (compiled) ${problem}`);
  }
  assert.deepEqual(problems, [], `APIs beyond ${browserFloor().join(', ')}`);
});

test('the script tag is built for the floor’s browsers', async () => {
  const { default: toEsbuild } = await import('browserslist-to-esbuild');
  assert.deepEqual(await browserTargets(), toEsbuild(browserFloor()));
  const bundle = await buildScriptTag();
  assert.ok(bundle.files.size >= 5, 'built without an error for those targets');
});
