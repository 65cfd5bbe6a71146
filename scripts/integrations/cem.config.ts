/**
 * The Custom Elements Manifest analyzer's configuration (scripts/integrations/analyze.ts runs it): the element
 * sources, Lit's syntax, and one correction.
 */
interface Member {
  name: string;
  type?: { text: string };
}
interface ClassLike {
  name: string;
  members?: Member[];
}
interface ModuleDoc {
  declarations?: ClassLike[];
}

/**
 * The analyzer gives a member an element redeclares the type of its base class's declaration (`strings`, declared
 * generically in PaykitElement, is `Partial<Record<PayButtonStringKey, string>>` on <pay-button>). The element's
 * own declaration is the one that holds: recorded as each module is read, put back once inheritance is applied.
 */
function ownTypesWin() {
  const own = new Map<string, { text: string }>();
  return {
    name: 'paykit-own-types-win',
    moduleLinkPhase({ moduleDoc }: { moduleDoc: ModuleDoc }) {
      for (const declaration of moduleDoc.declarations ?? []) {
        for (const member of declaration.members ?? [])
          if (member.type) own.set(`${declaration.name}.${member.name}`, member.type);
      }
    },
    packageLinkPhase({ customElementsManifest }: { customElementsManifest: { modules: ModuleDoc[] } }) {
      for (const module of customElementsManifest.modules) {
        for (const declaration of module.declarations ?? []) {
          for (const member of declaration.members ?? []) {
            const type = own.get(`${declaration.name}.${member.name}`);
            if (type) member.type = type;
          }
        }
      }
    },
  };
}

export default {
  globs: ['src/elements/**/*.ts', 'src/elements/paykit-element.ts'],
  exclude: ['src/elements/**/*.styles.ts'],
  litelement: true,
  packagejson: false,
  quiet: true,
  plugins: [ownTypesWin()],
};
