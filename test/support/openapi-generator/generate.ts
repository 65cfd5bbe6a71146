import openapiTS, { astToString } from 'openapi-typescript';

/**
 * The TypeScript of an OpenAPI document as openapi-typescript writes it (`export interface paths …`). It writes with
 * the TypeScript 5 compiler API, which TypeScript 7 (the repository's compiler) does not have as JavaScript: this
 * folder is a package of its own, so that openapi-typescript finds its `typescript` here and `tsc` stays 7.
 */
export async function generateTypes(document: object): Promise<string> {
  return astToString(await openapiTS(structuredClone(document) as never, { silent: true }));
}
