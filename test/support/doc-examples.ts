import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every fenced block of a page in `languages`, as written there (a block indented in a list, unindented). */
export function examples(page: string, languages = ['ts', 'js']): { language: string; code: string }[] {
  const text = readFileSync(join(root, page), 'utf8');
  return [...text.matchAll(/^( *)```(\w+)\n([\s\S]*?)^\1```/gm)]
    .filter(([, , language]) => languages.includes(language!))
    .map(([, indent, language, code]) => ({
      language: language!,
      code: code!
        .split('\n')
        .map((line) => line.slice(indent!.length))
        .join('\n'),
    }));
}

/** paykit's names as a test running from the sources loads them (the published names resolve to the built dist/). */
const SOURCES: Record<string, string> = {
  'paykit/client': '../../client/index.ts',
  'paykit/ssr': '../../src/ssr/index.ts',
};

/**
 * A page's examples as one module: their imports on top, and each example the body of an exported function
 * `example{n}` taking the names the page's prose supposes (`parameters`), so each runs as written.
 */
export function asModule(blocks: string[], header: string[], parameters: string): string {
  const imports = new Set(header);
  const bodies = blocks.map((block, index) => {
    const lines = block.split('\n');
    for (const line of lines) {
      if (line.startsWith('import '))
        imports.add(
          line.replace(/'(paykit\/\w+)'/, (name, bare: string) => (SOURCES[bare] ? `'${SOURCES[bare]}'` : name)),
        );
    }
    const body = lines.filter((line) => !line.startsWith('import ')).join('\n');
    return `export async function example${index + 1}(${parameters}) {\n${body}\n}`;
  });
  return [...imports, '', ...bodies, ''].join('\n');
}
