/**
 * How long the browser tests wait for a browser: launch + a first page, median of 8, for Debian's chromium (when
 * on PATH) and the headless Chromium bundled by @sparticuz/chromium (unpacked on first use, timed apart).
 * `npm run bench:browser`. Figures: bench/README.md "Browser for the tests".
 */
import { chromium } from 'playwright-core';
import { bundledChromium } from '../test/helpers/tool-setup.ts';
import { onPath } from '../test/helpers/tools.ts';

async function median(executablePath: string, env: Record<string, string>): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < 8; run++) {
    const started = performance.now();
    const browser = await chromium.launch({
      executablePath,
      headless: true,
      env: { ...process.env, ...env },
      args: ['--no-sandbox', '--disable-gpu'],
    });
    const page = await browser.newPage();
    await page.setContent('<p>ready</p>');
    times.push(performance.now() - started);
    await browser.close();
  }
  return times.sort((a, b) => a - b)[4];
}

const unpackStarted = performance.now();
const bundled = await bundledChromium();
console.log(`bundled: ready in ${(performance.now() - unpackStarted).toFixed(0)} ms (unpack, or 0 when cached)`);
console.log(
  `bundled ${bundled.executablePath}: median launch + first page ${(await median(bundled.executablePath, bundled.env)).toFixed(0)} ms`,
);
const system = onPath('chromium');
if (system) console.log(`${system}: median launch + first page ${(await median(system, {})).toFixed(0)} ms`);
