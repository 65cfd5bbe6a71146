/**
 * custom-elements.json as the package ships it: each element's module is the file a user imports
 * (`dist/pay-button.js`, `paykit/pay-button`), with the class, its strings table and its definition;
 * `dist/paykit.js` exports all three; public members only. The base classes live in no file of their own in the
 * package, so references to them keep their names only.
 */
import type { Declaration, Element, Manifest, ManifestModule } from './model.ts';

const shipped = (element: Element) => `dist/${element.tag}.js`;

/** What a user of the package may touch: the public members, not the private and protected ones. */
function publicOnly(declarations: Declaration[]): Declaration[] {
  return declarations.map((declaration) =>
    declaration.members
      ? {
          ...declaration,
          members: declaration.members.filter(
            (member) => (!member.privacy || member.privacy === 'public') && !member.name.startsWith('#'),
          ),
        }
      : declaration,
  );
}

/** A reference into src/ has no file in the package: its name stays, its module goes. */
function withoutSourceModules(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSourceModules);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, item]) => !(key === 'module' && typeof item === 'string' && /^\/?src\//.test(item)))
      .map(([key, item]) => [key, withoutSourceModules(item)]),
  );
}

export function shippedManifest(manifest: Manifest, elements: Element[]): string {
  const modules: ManifestModule[] = elements.map((element) => {
    const source = manifest.modules.find((module) => module.declarations?.includes(element.declaration))!;
    const path = shipped(element);
    const exported = new Set((source.exports ?? []).map((entry) => entry.declaration.name));
    return {
      kind: 'javascript-module',
      path,
      declarations: withoutSourceModules(
        publicOnly(source.declarations?.filter((declaration) => exported.has(declaration.name)) ?? []),
      ) as ManifestModule['declarations'],
      exports: [
        ...(source.exports ?? [])
          .filter((entry) => entry.kind === 'js')
          .map((entry) => ({ ...entry, declaration: { name: entry.declaration.name, module: path } })),
        {
          kind: 'custom-element-definition',
          name: element.tag,
          declaration: { name: element.className, module: path },
        },
      ],
    };
  });
  modules.push({
    kind: 'javascript-module',
    path: 'dist/paykit.js',
    declarations: [],
    exports: elements.flatMap((element) => [
      { kind: 'js', name: element.className, declaration: { name: element.className, module: shipped(element) } },
      {
        kind: 'custom-element-definition',
        name: element.tag,
        declaration: { name: element.className, module: shipped(element) },
      },
    ]),
  });
  return `${JSON.stringify({ schemaVersion: manifest.schemaVersion, readme: 'README.md', modules }, null, 2)}\n`;
}
