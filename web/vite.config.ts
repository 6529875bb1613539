import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The web app: one HTML shell plus hashed assets under /app/assets/ (served by src/modules/webapp with a long
 * cache). JSX goes through Vite's own transformer (automatic runtime), so no React plugin is needed.
 */
export default defineConfig({
  root,
  base: '/app/',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Fonts and small images stay files: the Content-Security-Policy allows data: fonts, but files cache better.
    assetsInlineLimit: 0,
    // The page must load without any inline script; Vite's module-preload polyfill is bundled, not inlined.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
    sourcemap: false,
  },
});
