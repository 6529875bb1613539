import { defineConfig } from 'vitest/config';

/**
 * Two projects: every test file, in parallel (two at a time), then the timing files of test/timing/ alone, once the
 * others are done, so a budget from an issue (the signing page's first page in 1.5 s) is measured on a quiet machine
 * rather than next to another file's database work.
 */
export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/web-build.ts', 'test/helpers/tool-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // A poll answers as soon as it holds; the longer default only matters on a loaded machine (a browser page
    // drawing while another test file works), where 1 s made the e2e checks fail for nothing.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: { name: 'main', include: ['test/**/*.test.ts', 'src/**/*.test.ts'], exclude: ['test/timing/**'] },
      },
      // A new file under test/timing/ gets a group of its own below (a file no project includes does not run).
      // One group per timing file: two in parallel measured each other (the 100k seeding slowed the signing page to 2 s).
      {
        extends: true,
        test: { name: 'timing', include: ['test/timing/signing-page-first-page.test.ts'], sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: {
          name: 'timing-lists',
          include: ['test/timing/dashboard-first-paint.test.ts'],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
