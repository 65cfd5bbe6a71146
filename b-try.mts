import { buildScriptTag } from './server/script-tag/bundle.ts';
const b = await buildScriptTag();
console.log('loader', b.loader.identity.length, b.loader.br.length);
for (const [n, f] of b.files) console.log(n, f.identity.length, f.br.length, f.gzip.length);
const br = (fs: string[]) => [...new Set(fs)].reduce((s, f) => s + b.files.get(f)!.br.length, 0) + b.loader.br.length;
for (const tag of Object.keys(b.elements)) console.log(tag, 'with loader, br', br(b.elements[tag]));
console.log('all three', br(Object.values(b.elements).flat()));
