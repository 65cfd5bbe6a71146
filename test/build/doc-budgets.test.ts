/**
 * Docs are documents, held to budgets as the storage layer is (storage-size.test.ts): today's figures and one short
 * entry per decision, history in git. A budget moves only down; a new doc gets one here. No doc cites a measurement's
 * "round N" (that is history) or a path outside the repository (a reader of the repository cannot open it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Lines each doc may have: its count when the budgets were set, rounded up to the next 10. */
const budgets: Record<string, number> = {
  'README.md': 360,
  'client/README.md': 10,
  'contract/README.md': 20,
  'rules/README.md': 10,
  'server/README.md': 10,
  'src/README.md': 20,
  'docs/adapters.md': 240,
  'docs/architecture.md': 110,
  'docs/client-reference.md': 530,
  'docs/client.md': 160,
  'docs/csp.md': 50,
  'docs/decisions.md': 370,
  'docs/demo.md': 80,
  'docs/disputes.md': 90,
  'docs/hosted-pages.md': 80,
  'docs/onboarding.md': 150,
  'docs/payments.md': 170,
  'docs/payouts.md': 140,
  'docs/performance.md': 150,
  'docs/scaling.md': 100,
  'docs/security.md': 290,
  'docs/testing.md': 70,
  'docs/webhooks.md': 190,
  'docs/widget-api.md': 70,
  'docs/widgets.md': 470,
};

/** docs/performance.md is one page, whatever its budget says. */
const ONE_PAGE = 150;

/** The repository's docs: README.md, every docs/*.md, and the README.md of each top-level folder. */
function docs(): string[] {
  const folders = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .filter((entry) => !['node_modules', 'dist', 'build'].includes(entry.name))
    .map((entry) => `${entry.name}/README.md`)
    .filter((path) => existsSync(resolve(root, path)));
  const pages = readdirSync(resolve(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...folders, ...pages];
}

const lineCount = (path: string) => readFileSync(resolve(root, path), 'utf8').trimEnd().split('\n').length;

test('every doc keeps within its line budget, and a new doc has one', () => {
  const problems = docs().flatMap((path) => {
    const budget = path === 'docs/performance.md' ? Math.min(budgets[path]!, ONE_PAGE) : budgets[path];
    if (budget === undefined) {
      return [`${path} (${lineCount(path)} lines) has no line budget: add it to test/build/doc-budgets.test.ts`];
    }
    const lines = lineCount(path);
    return lines > budget ? [`${path} has ${lines} lines, over its budget of ${budget}`] : [];
  });
  assert.deepEqual(problems, []);
});

/** "round 3", "the fourth round", "rounds 1,447–1,624": a citation of one run of a measurement. */
const ordinal = '(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|previous|earlier|later)';
const roundCited = new RegExp(`\\b(rounds? \\d|round (one|two|three|four|five|six)\\b|${ordinal} rounds?\\b)`, 'i');
/** Places on one machine, never in the repository. */
const outsidePath = /(^|[\s`'"(=])(\/(work|tmp|home|root|Users)\/|(\.\.\/)*\.\.\/shared\/)/g;
/** A relative path: `../x`, `../../x`. */
const relativePath = /(?<![\w/.])((?:\.\.\/)+)[\w.-]/g;

test('no doc cites a measurement round or a path outside the repository', () => {
  const problems = docs().flatMap((path) =>
    readFileSync(resolve(root, path), 'utf8')
      .split('\n')
      .flatMap((line, index) => {
        const where = `${path}:${index + 1}`;
        const found: string[] = [];
        const round = roundCited.exec(line);
        if (round) found.push(`${where} cites a round ("${round[0]}"): give today's figure; history lives in git`);
        for (const outside of line.matchAll(outsidePath)) {
          found.push(`${where} cites a path outside the repository ("${outside[2]}")`);
        }
        for (const [, climb] of line.matchAll(relativePath)) {
          const target = relative(root, resolve(root, dirname(path), climb!));
          if (target.startsWith('..')) found.push(`${where} cites a path outside the repository ("${climb}…")`);
        }
        return found;
      }),
  );
  assert.deepEqual(problems, []);
});
