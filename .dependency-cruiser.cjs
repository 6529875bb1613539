/**
 * The dependency rules of ARCHITECTURE.md, checked in CI (`npm run lint:deps`).
 * - platform/ is the adapters to the outside world: it never reaches into a module.
 * - A module's queries live in its `*.repo.ts` files: no other file of a module imports Drizzle or the schema
 *   (type-only imports of row types are fine).
 * - A module never imports another module's repo: it calls that module's service or exported functions.
 * - HTTP plumbing (src/http) does not import modules either, except the account lookup of authentication.
 */
module.exports = {
  forbidden: [
    {
      name: 'platform-never-imports-modules',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'queries-only-in-repos',
      comment: 'Drizzle queries belong in <noun>.repo.ts',
      severity: 'error',
      from: { path: '^src/modules/', pathNot: '\\.repo\\.ts$' },
      to: { path: ['(^|/)node_modules/drizzle-orm/', '^src/platform/db/schema/'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-foreign-repo',
      comment: 'call the other module\'s service, not its repo',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/([^/]+)/[^/]+\\.repo\\.ts$', pathNot: '^src/modules/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
