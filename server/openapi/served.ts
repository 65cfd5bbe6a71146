import { compressFile, type ServedFile } from '../static/served-file.ts';

type Json = Record<string, any>;

/** The published document, made once per service when first asked for, and its compressed bytes. */
export interface ServedDocument {
  document(): Json;
  /** `/api/v1/openapi.json` as sent: ~350 KB of JSON, a tenth of it compressed. */
  file(): Promise<ServedFile>;
}

export function servedDocument(publish: () => Json): ServedDocument {
  let document: Json | undefined;
  let file: Promise<ServedFile> | undefined;
  const served: ServedDocument = {
    document: () => (document ??= publish()),
    file: () => (file ??= compressFile(JSON.stringify(served.document()), { brotliQuality: 9 })),
  };
  return served;
}
