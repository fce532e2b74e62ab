/**
 * Stand-in for the generated API types in the repository's own typecheck (`npm run typecheck` includes
 * tests/, and tests/contract/generated/ is git-ignored, written by typed-client.test.ts). An ambient
 * module is only used when `flockwise-api` resolves to no file: tests/contract/tsconfig.json maps it to
 * generated/api.d.ts and does not include this file, so the contract check always uses the real types.
 */
declare module 'flockwise-api' {
  export type paths = any;
  export type components = any;
}
