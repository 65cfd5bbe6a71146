/**
 * A template compiler node transform: on the given tags, `v-bind` of a listed member (`:fetch-session-token` or
 * `:fetchSessionToken`) becomes a DOM property binding (`.fetchSessionToken`). Vue sets a binding as a property
 * only when the element already has it (`key in el`, which never holds for a kebab-case name, nor before the
 * element is defined) and otherwise writes an attribute: a function or an object would arrive as text.
 */
import type { CompilerOptions } from 'vue/compiler-sfc';

type NodeTransform = NonNullable<CompilerOptions['nodeTransforms']>[number];

/** The parts of Vue's template AST this reads (NodeTypes: 1 element, 7 directive, 4 simple expression). */
interface TemplateElement {
  type: number;
  tag: string;
  props: { type: number; name: string; arg?: { type: number; content: string; isStatic: boolean } }[];
}

const camelize = (name: string) => name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

export function bindAsProperties(members: Readonly<Record<string, readonly string[]>>): NodeTransform {
  return (node, context) => {
    const element = node as unknown as TemplateElement;
    // A server render writes attributes only: there a property binding would be written as a `.name` attribute.
    if (element.type !== 1 || !Object.hasOwn(members, element.tag) || context.ssr) return;
    for (const prop of element.props) {
      const arg = prop.arg;
      if (prop.type !== 7 || prop.name !== 'bind' || arg?.type !== 4 || !arg.isStatic) continue;
      const name = camelize(arg.content);
      if (members[element.tag]!.includes(name)) arg.content = `.${name}`;
    }
  };
}
