/**
 * The package as npm users get it: `npm pack` (which builds it), installed into a throwaway app, then used the way
 * each kind of project uses it. What npm installs is counted; every export and every manifest path must be in the
 * package; `paykit/pay-button` must bundle without the other elements; and the app's code is type-checked as React
 * (strict, exactOptionalPropertyTypes), Vue (vue-tsc, components and bare tags), Svelte (svelte-check), Angular (ngc,
 * strictTemplates), Preact and Solid projects check it. The tools are test/package/consumers' (TypeScript 6:
 * vue-tsc and svelte-check need its JavaScript API; Angular's compiler and packages), the other frameworks the
 * repository's.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const consumers = join(root, 'test/package/consumers');
const app = join(consumers, 'app');
const bin = (tool: string) => join(consumers, 'node_modules/.bin', tool);
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, maxBuffer: 64 * 1024 * 1024 });

/** Lit's packages, and what lit-html itself depends on (its Trusted Types typings): all npm may add to paykit. */
const ALLOWED = [
  'paykit',
  'lit-element',
  'lit-html',
  '@lit/reactive-element',
  '@lit/task',
  '@lit-labs/ssr-dom-shim',
  '@types/trusted-types',
];

interface PackedFile {
  path: string;
}

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((total, name) => total + sizeOf(join(path, name)), 0);
}

describe('the published package', { timeout: 600_000 }, () => {
  let files: string[] = [];
  let installed: string[] = [];

  before(async () => {
    if (!['vue-tsc', 'svelte-check', 'ngc'].every((tool) => existsSync(bin(tool))))
      await npm(['ci', '--prefer-offline'], consumers);
    rmSync(app, { recursive: true, force: true });
    mkdirSync(app, { recursive: true });
    // The build `npm pack` runs first (prepack), run here on its own so that pack's answer is its JSON alone.
    await npm(['run', 'build'], root);
    const { stdout } = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', app], root);
    const [packed] = JSON.parse(stdout) as [{ filename: string; files: PackedFile[] }];
    files = packed.files.map((file) => file.path);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'throwaway-app', private: true, type: 'module' }));
    await npm(['install', '--prefer-offline', `./${packed.filename}`], app);
    const lock = JSON.parse(readFileSync(join(app, 'node_modules/.package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    installed = Object.keys(lock.packages)
      .map((path) => path.replace(/^.*node_modules\//, ''))
      .sort();
  });

  after(() => rmSync(app, { recursive: true, force: true }));

  test('npm install paykit adds paykit and Lit’s packages, nothing else', (t) => {
    assert.ok(installed.includes('paykit'));
    assert.deepEqual(
      installed.filter((name) => !ALLOWED.includes(name)),
      [],
      'only paykit and Lit',
    );
    const bytes = sizeOf(join(app, 'node_modules'));
    t.diagnostic(
      `${installed.length} packages, ${(bytes / 1024 / 1024).toFixed(1)} MB on disk: ${installed.join(', ')}`,
    );
    assert.ok(installed.length <= ALLOWED.length);
  });

  test('the tarball holds the built files, the manifest, the editor data, a LICENSE and the README; no sources', () => {
    for (const file of [
      'package.json',
      'LICENSE',
      'README.md',
      'custom-elements.json',
      'editors/vscode.html-custom-data.json',
      'editors/vscode.css-custom-data.json',
    ]) {
      assert.ok(files.includes(file), file);
    }
    assert.deepEqual(
      files.filter((file) => /^(src|server|test|wrappers|scripts|demo)\//.test(file)),
      [],
    );
    const license = readFileSync(join(app, 'node_modules/paykit/LICENSE'), 'utf8');
    assert.match(license, /^MIT License/);
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/paykit/package.json'), 'utf8'));
    assert.equal(pkg.license, 'MIT');
    assert.match(pkg.repository.url, /github\.com/);
    assert.ok(pkg.keywords.includes('web-components'));
    for (const name of Object.keys(pkg.peerDependencies))
      assert.equal(pkg.peerDependenciesMeta[name]?.optional, true, `${name} is an optional peer`);
  });

  test('every export and every path of the manifest is in the package', () => {
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/paykit/package.json'), 'utf8'));
    const targets = Object.values(pkg.exports as Record<string, string | Record<string, string>>).flatMap((target) =>
      typeof target === 'string'
        ? [target]
        : Object.entries(target)
            .filter(([condition]) => condition !== 'paykit-source')
            .map(([, path]) => path),
    );
    for (const target of targets) assert.ok(files.includes(target.replace(/^\.\//, '')), `${target} is in the package`);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/paykit', pkg.customElements), 'utf8'));
    const paths = manifest.modules.flatMap(
      (module: { path: string; exports: { declaration: { module?: string } }[] }) => [
        module.path,
        ...module.exports.map((entry) => entry.declaration.module).filter(Boolean),
      ],
    );
    assert.ok(paths.length >= 8);
    for (const path of paths) assert.ok(files.includes(path), `${path} (named by the manifest) is in the package`);
    assert.doesNotMatch(JSON.stringify(manifest), /"src\//, 'nothing points into src/');
  });

  test("the React entries start with 'use client', for Next.js’s App Router", () => {
    for (const file of [
      'react.js',
      'react/pay-button.js',
      'react/request-payment-button.js',
      'react/transactions-table.js',
    ]) {
      assert.match(readFileSync(join(app, 'node_modules/paykit/dist', file), 'utf8'), /^["']use client["'];/, file);
    }
  });

  test('a React app with PayButton alone (paykit/react/pay-button) is as small as paykit/pay-button plus the component', async (t) => {
    const { build } = await import('esbuild');
    // Minified as an app's production build is, React left out (the app has it either way); gzip is deterministic.
    const bundle = async (contents: string) => {
      const { outputFiles } = await build({
        stdin: { contents, resolveDir: app, loader: 'js' },
        bundle: true,
        format: 'esm',
        write: false,
        minify: true,
        logLevel: 'silent',
        platform: 'browser',
        external: ['react', 'react-dom'],
      });
      const text = outputFiles[0]!.text;
      return { text, gzip: gzipSync(text).length };
    };
    const alone = await bundle(`import { PayButton } from 'paykit/react/pay-button'; console.log(PayButton);`);
    const element = await bundle(`import { PayButton } from 'paykit/pay-button'; console.log(PayButton);`);
    const all = await bundle(`import { PayButton } from 'paykit/react'; console.log(PayButton);`);
    t.diagnostic(
      `gzip: paykit/react/pay-button ${alone.gzip} B, paykit/pay-button ${element.gzip} B, paykit/react ${all.gzip} B`,
    );
    assert.match(alone.text, /"pay-button"/);
    assert.doesNotMatch(
      alone.text,
      /transactions-table|request-payment-button|Loading transactions|Sending the payment request/,
      'no other element',
    );
    assert.ok(
      alone.gzip - element.gzip <= 1024,
      `the component adds ${alone.gzip - element.gzip} B gzip to the element, over 1 kB`,
    );
    assert.ok(
      all.gzip - alone.gzip >= 4096,
      `paykit/react's other elements weigh ${all.gzip - alone.gzip} B gzip: the entry saves too little`,
    );
  });

  test('paykit/pay-button bundles <pay-button> alone; the package’s modules import in Node', async () => {
    const { build } = await import('esbuild');
    const bundle = async (contents: string) =>
      (
        await build({
          stdin: { contents, resolveDir: app, loader: 'js' },
          bundle: true,
          format: 'esm',
          write: false,
          minify: false,
          logLevel: 'silent',
          platform: 'browser',
        })
      ).outputFiles[0]!.text;
    const alone = await bundle(`import { PayButton } from 'paykit/pay-button'; console.log(PayButton);`);
    assert.match(alone, /"pay-button"/);
    assert.match(alone, /Preparing your payment/);
    // Neither the other elements' definitions nor their code (their English texts are in their modules).
    assert.doesNotMatch(
      alone,
      /transactions-table|request-payment-button|Loading transactions|Sending the payment request/,
      'no other element',
    );
    const all = await bundle(`import 'paykit';`);
    assert.ok(all.includes('"transactions-table"') && all.includes('Loading transactions'), 'all three with paykit');

    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
      const react = await import('paykit/react');
      const alone = await import('paykit/react/pay-button');
      const { renderToString } = await import('react-dom/server');
      const { createElement } = await import('react');
      const vue = await import('paykit/vue');
      const { compilerOptions } = await import('paykit/vue/compiler');
      console.log(JSON.stringify([
        renderToString(createElement(react.PayButton, { amount: '1.00' })), renderToString(createElement(alone.PayButton, { id: 'buy' })),
        vue.PayButton.name, compilerOptions.isCustomElement('pay-button'),
      ]));
    `,
      ],
      { cwd: app },
    );
    assert.deepEqual(JSON.parse(stdout), [
      '<pay-button></pay-button>',
      '<pay-button id="buy"></pay-button>',
      'PayButton',
      true,
    ]);
  });

  test('npx paykit, the package’s command, is installed and runs', async () => {
    const command = join(app, 'node_modules/.bin/paykit');
    assert.ok(existsSync(command), "package.json's bin is linked");
    const { stdout } = await run(process.execPath, [command, '--help'], { cwd: app });
    assert.match(stdout, /^Usage: paykit listen --forward-to <url>/);
    const missing = await run(process.execPath, [command, 'listen'], {
      cwd: app,
      env: { ...process.env, PAYKIT_CLIENT_ID: '', PAYKIT_CLIENT_SECRET: '' },
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(missing?.code, 2);
    assert.match(missing!.stderr, /Missing --forward-to/);
  });

  test('the README speaks to npm users: repository commands only where it says they are for a clone', () => {
    const readme = readFileSync(join(app, 'node_modules/paykit/README.md'), 'utf8');
    const sections = readme.split(/\n(?=## )/);
    const repositoryOnly = /\b(npm start|npm test|npm run \w|npm install && |bash \.ci\/run)/;
    for (const section of sections) {
      if (/^## .*repository/i.test(section)) continue;
      for (const block of section.split(/```/).filter((_, index) => index % 2 === 1)) {
        if (repositoryOnly.test(block))
          assert.match(block, /git clone/, `a repository command outside the repository's section:\n${block}`);
      }
    }
    assert.match(sections[0]!, /npm install paykit/);
  });

  describe('type-checked as users check it', () => {
    before(() => cpSync(join(root, 'test/package/fixtures'), app, { recursive: true }));

    for (const framework of ['react', 'preact', 'solid']) {
      test(`${framework} (tsc, strict, exactOptionalPropertyTypes)`, async () => {
        await run(bin('tsc'), ['-p', join(app, framework, 'tsconfig.json')], { cwd: app }).catch((error) =>
          assert.fail(`${error.stdout}${error.stderr}`),
        );
      });
    }

    test('vue (vue-tsc, strictTemplates): the components and the bare tags, with global HTML attributes', async () => {
      await run(bin('vue-tsc'), ['-p', join(app, 'vue/tsconfig.json')], { cwd: app }).catch((error) =>
        assert.fail(`${error.stdout}${error.stderr}`),
      );
    });

    const svelteCheck = async (folder: string) => {
      const result = await run(
        bin('svelte-check'),
        ['--workspace', join(app, folder), '--tsconfig', join(app, folder, 'tsconfig.json'), '--output', 'machine'],
        { cwd: app },
      ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
      const completed = /COMPLETED \d+ FILES (\d+) ERRORS (\d+) WARNINGS/.exec(result.stdout);
      assert.ok(completed, result.stdout);
      return { errors: Number(completed[1]), warnings: Number(completed[2]), output: result.stdout };
    };

    // ngc is the Angular compiler `ng build` runs (templates compiled ahead of time, type-checked with strictTemplates).
    const ngc = async (folder: string) => {
      const result = await run(bin('ngc'), ['-p', join(app, folder, 'tsconfig.json')], { cwd: app }).then(
        ({ stdout, stderr }) => `${stdout}${stderr}`,
        (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
      );
      // Its diagnostics come coloured, even into a pipe.
      const output = result.replace(/\x1b\[[\d;]*m/g, '');
      return { errors: (output.match(/error TS\d+/g) ?? []).length, output };
    };

    test('angular (ngc, strictTemplates, CUSTOM_ELEMENTS_SCHEMA): the tags’ events typed by paykit/angular, and what they refuse', async () => {
      const good = await ngc('angular');
      assert.equal(good.errors, 0, good.output);
      const wrong = await ngc('angular-wrong');
      assert.equal(wrong.errors, 2, wrong.output);
      assert.match(wrong.output, /CustomEvent<PaySuccessDetail>/, 'the handler’s event is the element’s, not Event');
    });

    test('svelte (svelte-check): the bare tags, and what they refuse', async () => {
      const good = await svelteCheck('svelte');
      assert.deepEqual([good.errors, good.warnings], [0, 0], good.output);
      const wrong = await svelteCheck('svelte-wrong');
      assert.equal(wrong.errors, 2, wrong.output);
    });
  });
});
