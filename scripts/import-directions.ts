/**
 * Which way the imports go (docs/architecture.md), checked over the source: every relative import of every file,
 * resolved to the part it lands in; and no circle among the files of src/, client/, contract/ and server/.
 * `node scripts/import-directions.ts` prints the forbidden imports and the circles and exits 1; test/build/architecture.test.ts runs it in `npm test`.
 *
 * A small reader of import lines, not dependency-cruiser or madge: both parse TypeScript through the `typescript`
 * package's JavaScript API, which the native TypeScript 7 compiler used here does not offer.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Rule {
  /** The part whose files import. */
  from: string;
  /** Parts it may not import (at run time; `import type` is allowed where `typesAllowed` says so). */
  forbidden: string[];
  /** Parts it may import types from, though not values. */
  typesAllowed?: string[];
  /** Files of a forbidden part it may import all the same, each for a reason given beside it. */
  allowed?: string[];
  /** Packages it may not import (a name, or a scope such as `@fastify/`), types included. */
  forbiddenPackages?: string[];
  why: string;
}

/** The parts of the house, by path prefix; the longest prefix wins. */
export const PARTS = [
  'rules',
  'contract',
  'src',
  'src/shared',
  'src/locales',
  'src/elements',
  'client',
  'wrappers',
  'demo',
  'server',
  'server/domain',
  'server/store',
  'server/services',
  'server/webhooks',
  'server/views',
  'server/schemas',
  'server/routes',
  'server/plugins',
  'server/cli',
  'server/platform',
];

/** What of src/ stands above what the elements share: the elements, the calls and configuration they use, the entries. */
const ABOVE_SHARED = [
  'src/elements',
  'src/script-tag',
  'src/ssr',
  'src/config.ts',
  'src/widget-api.ts',
  'src/widget-console-api.ts',
  'src/index.ts',
  'src/pay-button.ts',
  'src/request-payment-button.ts',
  'src/transactions-table.ts',
];

const SERVICE_EDGE = ['server/routes', 'server/plugins', 'server/app.ts', 'server/main.ts', 'server/cli'];
/** HTTP is the edge's: below it nothing names Fastify, not even its types. */
const HTTP = ['fastify', '@fastify/'];

export const RULES: Rule[] = [
  {
    from: 'rules',
    forbidden: ['contract', 'src', 'client', 'server', 'wrappers', 'demo'],
    why: 'rules are shared by both sides and belong to neither',
  },
  {
    from: 'contract',
    forbidden: ['rules', 'src', 'client', 'server', 'wrappers', 'demo'],
    why: 'the wire types are generated to stand alone: both products import them, they import nothing',
  },
  {
    from: 'src',
    forbidden: ['server', 'client', 'wrappers', 'demo'],
    why: 'the widgets are a product of their own: no service code, no partner client',
  },
  {
    from: 'src/shared',
    forbidden: ABOVE_SHARED,
    why: 'what the elements share sits beneath them: no element, no service call, no configuration, no entry',
  },
  {
    from: 'src/locales',
    forbidden: ['src/shared', ...ABOVE_SHARED],
    why: 'the texts are data the elements load: naming an element from them closes a circle',
  },
  {
    from: 'client',
    forbidden: ['src', 'server', 'wrappers', 'demo'],
    why: 'paykit/client is a product of its own: no widget code, no service code',
  },
  {
    from: 'wrappers',
    forbidden: ['server', 'demo', 'src/elements', 'src/shared', 'client', 'contract'],
    why: 'the adapters use the public entry of src/ only',
  },
  {
    from: 'server',
    forbidden: ['src', 'client', 'contract', 'wrappers', 'demo'],
    why: 'the service shares rules through rules/, not through the browser bundle',
  },
  {
    from: 'demo',
    forbidden: ['src', 'client', 'contract', 'wrappers', 'server', 'rules'],
    // Vite reads its config with Node before any resolver of the demo's runs: it names paykit/vue/compiler's source.
    allowed: ['wrappers/vue/compiler.ts'],
    why: 'the demo uses the package as a user would: the script tag or paykit, paykit/react, paykit/vue, paykit/client',
  },
  {
    from: 'server/platform',
    forbidden: [
      'server/domain',
      'server/store',
      'server/services',
      'server/webhooks',
      'server/views',
      'server/schemas',
      ...SERVICE_EDGE,
    ],
    // the configuration's default retry schedule is the webhooks' own list, a constant that imports nothing
    allowed: ['server/webhooks/retry-schedule.ts'],
    why: 'the clock, the secrets and the configuration sit beneath every layer that uses them',
  },
  {
    from: 'server/domain',
    forbidden: [
      'server/store',
      'server/services',
      'server/webhooks',
      'server/views',
      'server/schemas',
      ...SERVICE_EDGE,
      'server/platform',
    ],
    forbiddenPackages: HTTP,
    why: 'the domain is plain functions over plain data: no storage, no HTTP, no clock',
  },
  {
    from: 'server/store',
    forbidden: ['server/services', 'server/webhooks', 'server/views', 'server/schemas', ...SERVICE_EDGE],
    forbiddenPackages: HTTP,
    why: 'storage knows no HTTP and no use case',
  },
  {
    from: 'server/services',
    forbidden: ['server/views', ...SERVICE_EDGE],
    forbiddenPackages: HTTP,
    why: 'use cases know no HTTP: routes and pages call them',
  },
  {
    from: 'server/webhooks',
    forbidden: ['server/services', 'server/views', ...SERVICE_EDGE],
    forbiddenPackages: HTTP,
    why: 'delivery works on the outbox, below the use cases',
  },
  {
    from: 'server/views',
    forbidden: [
      'server/store',
      'server/services',
      'server/webhooks',
      'server/schemas',
      'server/platform',
      ...SERVICE_EDGE,
    ],
    typesAllowed: ['server/platform/config.ts'],
    why: 'views render the data they are given',
  },
  {
    from: 'server/schemas',
    forbidden: ['server/store', 'server/services', 'server/webhooks', 'server/views', ...SERVICE_EDGE],
    why: 'schemas describe the wire, from the domain’s lists',
  },
  {
    from: 'server/plugins',
    forbidden: ['server/routes', 'server/views'],
    why: 'cross-cutting concerns do not depend on the routes they guard',
  },
  {
    from: 'server/routes',
    forbidden: ['server/store/open.ts'],
    why: "routes read and write through their request's unit (plugins/request-unit.ts): none opens a store of its own",
  },
];

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export interface Violation {
  file: string;
  imports: string;
  rule: Rule;
}

function partOf(path: string): string | undefined {
  return PARTS.filter((part) => path === part || path.startsWith(`${part}/`)).sort((a, b) => b.length - a.length)[0];
}

function within(path: string, target: string): boolean {
  return path === target || path.startsWith(`${target}/`);
}

function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(root, path);
    return /\.(ts|tsx|vue|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every forbidden import among `files` (paths relative to `root`). */
export function violations(root: string, files: string[], rules: Rule[] = RULES): Violation[] {
  const found: Violation[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const applicable = rules.filter((rule) => within(file, rule.from));
    if (applicable.length === 0) continue;
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[3] ?? match[4]!;
      if (!specifier.startsWith('.')) {
        for (const rule of applicable) {
          if (
            rule.forbiddenPackages?.some(
              (name) => specifier === name || (name.endsWith('/') && specifier.startsWith(name)),
            )
          )
            found.push({ file, imports: specifier, rule });
        }
        continue;
      }
      const target = relative(root, resolve(root, dirname(file), specifier));
      const typeOnly = Boolean(match[2]);
      for (const rule of applicable) {
        const hit = rule.forbidden.find((part) => within(target, part));
        if (!hit || (within(target, rule.from) && partOf(target) === partOf(file))) continue;
        if (typeOnly && rule.typesAllowed?.some((part) => within(target, part))) continue;
        if (rule.allowed?.some((allowed) => target === allowed || target === allowed.replace(/\.ts$/, ''))) continue;
        found.push({ file, imports: target, rule });
      }
    }
  }
  return found;
}

export function projectViolations(root = fileURLToPath(new URL('..', import.meta.url))): Violation[] {
  const files = ['rules', 'contract', 'src', 'client', 'wrappers', 'server', 'demo'].flatMap((dir) =>
    sourceFiles(root, dir),
  );
  return violations(root, files);
}

/** Words that belong to one part: the database's dialect is the store's business (docs/architecture.md, "One write path"). */
export const OWNED_WORDS = [
  { word: 'dialect', part: 'server/store', why: 'which database runs is decided under server/store/ alone' },
];

/** The files of server/ outside a word's part that use the word (in code or comments alike), with the word. */
export function wordsOutsideTheirPart(
  root = fileURLToPath(new URL('..', import.meta.url)),
  files = sourceFiles(root, 'server'),
): string[] {
  return OWNED_WORDS.flatMap(({ word, part }) =>
    files
      .filter((file) => !within(file, part) && readFileSync(join(root, file), 'utf8').toLowerCase().includes(word))
      .map((file) => `${file}: ${word}`),
  );
}

/** The folders whose import graph must hold no circle. */
export const CIRCLE_FREE = ['src', 'client', 'contract', 'server'];

function resolveFile(root: string, target: string): string | undefined {
  const candidates = [target, `${target}.ts`, target.replace(/\.js$/, '.ts'), join(target, 'index.ts')];
  return candidates.find((path) => existsSync(join(root, path)) && statSync(join(root, path)).isFile());
}

/**
 * Who imports whom among `files`: every relative import, `import type` and `export … from` included. Type-only
 * imports count: they vanish at run time, but a circle of types is still two files that cannot be understood, moved
 * or published apart.
 */
export function importGraph(root: string, files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(IMPORT)) {
      const specifier = match[3] ?? match[4]!;
      if (!specifier.startsWith('.')) continue;
      const target = resolveFile(root, relative(root, resolve(root, dirname(file), specifier)));
      if (target && known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * Every circle in `graph`, one per strongly connected component (Tarjan): the shortest way round from the
 * component's first file, e.g. `a.ts → b.ts → a.ts`. A component with more ways round still shows once; breaking
 * the one shown and running again shows the next.
 */
export function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components
    .map((component) => shortestWayRound(graph, new Set(component)))
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function shortestWayRound(graph: Map<string, string[]>, component: Set<string>): string[] {
  const start = [...component][0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at]!;
    for (const next of graph.get(node) ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let back: string | undefined = node; back !== start; back = cameFrom.get(back!)) path.splice(1, 0, back!);
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  throw new Error(`no way round through ${start}`);
}

export function projectCircles(root = fileURLToPath(new URL('..', import.meta.url))): string[][] {
  return circles(
    importGraph(
      root,
      CIRCLE_FREE.flatMap((dir) => sourceFiles(root, dir)),
    ),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const found = projectViolations();
  for (const v of found) console.error(`${v.file} imports ${v.imports}: ${v.rule.why}.`);
  const round = projectCircles();
  for (const circle of round) console.error(`circle: ${circle.join(' → ')}`);
  const misplaced = wordsOutsideTheirPart();
  for (const word of misplaced) console.error(`${word}: ${OWNED_WORDS.map((w) => w.why).join('; ')}.`);
  console.log(
    found.length === 0 ? 'Imports go the way docs/architecture.md says.' : `${found.length} forbidden import(s).`,
  );
  console.log(
    round.length === 0 ? `No import circles in ${CIRCLE_FREE.join(', ')}.` : `${round.length} import circle(s).`,
  );
  process.exit(found.length === 0 && round.length === 0 && misplaced.length === 0 ? 0 : 1);
}
