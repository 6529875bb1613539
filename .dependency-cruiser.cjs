/**
 * The dependency rules of ARCHITECTURE.md, checked in CI (`npm run lint:deps`).
 * - platform/ is the adapters to the outside world: it never reaches into a module.
 * - A module's queries live in its `*.repo.ts` files: no other file of a module imports Drizzle or the schema
 *   (type-only imports of row types are fine).
 * - A module never imports another module's repo: it calls that module's service or exported functions.
 * - HTTP plumbing (src/http) does not import modules either, except the types of authentication's membership cache.
 * - No file reaches itself through its imports (type imports included: a type belongs where both sides can take it).
 * - Who may write which table is checked apart: scripts/check-table-owners.ts, run by `npm run lint:deps` too.
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
    {
      name: 'http-never-imports-modules',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/auth/membership-cache\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      comment: 'Drizzle\'s table files refer to each other through callbacks (references(() => t.id)), so the schema is exempt',
      severity: 'error',
      from: { pathNot: '^src/platform/db/schema/' },
      to: { circular: true },
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
