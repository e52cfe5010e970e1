// Browser benchmark of the explorer page (not a test): first paint and pan/zoom frame times
// in headless Chromium, through the page's `window.explorer` API (docs/explorer.md).
//
//   build/apps/gen_graph --shape decode --tasks 65536 --seed 1 -o /tmp/g/deps.json
//   build/apps/deps_viewer /tmp/g/deps.json --format html -o /tmp/g/explorer.html
//   node bench/explorer_bench.mjs /tmp/g/explorer.html [--frames 120] [--size 1400x900] [--runs 3]
//
// Needs scripts/setup.sh's npm packages (tests/browser/node_modules) and /usr/bin/chromium.
// Prints, per run: first paint (window.explorer.firstPaintMs), then for a pan and a zoom
// sequence of N frames (panBy / zoomAt called inside requestAnimationFrame) the mean, p95 and
// max frame interval and renderNow() duration, in ms. Frame intervals include the browser's
// own compositing; renderNow() is the page's drawing alone.
import path from 'node:path';
import { existsSync } from 'node:fs';

import {
  assertNoPageErrors, findChromium, launchBrowser, measureFrames, openPage, summarize,
} from '../tests/browser/harness.mjs';

function parseArgs(argv) {
  const args = { page: null, frames: 120, width: 1400, height: 900, runs: 1 };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--frames') args.frames = Number(argv[++i]);
    else if (a === '--runs') args.runs = Number(argv[++i]);
    else if (a === '--size') [args.width, args.height] = argv[++i].split('x').map(Number);
    else if (a === '-h' || a === '--help') args.help = true;
    else args.page = a;
  }
  return args;
}

const format = (s) => `mean ${s.mean}  p95 ${s.p95}  max ${s.max}  (n=${s.n})`;

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help || !args.page) {
    console.log('usage: node bench/explorer_bench.mjs PAGE.html [--frames N] [--size WxH] [--runs R]');
    process.exit(args.help ? 0 : 2);
  }
  if (!existsSync(args.page)) throw new Error(`no such page: ${args.page}`);
  if (!findChromium()) throw new Error('chromium not found (apt-get install chromium)');
  const browser = await launchBrowser();
  try {
    console.log(`page ${path.resolve(args.page)}, ${args.width}x${args.height}, ${args.frames} frames`);
    for (let run = 1; run <= args.runs; ++run) {
      const { page, errors } = await openPage(browser, args.page, {
        width: args.width, height: args.height,
        waitFor: 'window.explorer && window.explorer.ready === true',
      });
      const firstPaint = await page.evaluate(() => window.explorer.firstPaintMs);
      console.log(`run ${run}: first paint ${Math.round(firstPaint)} ms`);
      // Pan: a slow circle; zoom: in towards the centre, then back out.
      const pan = await measureFrames(page, args.frames,
        'window.explorer.panBy(12 * Math.cos(i / 10), 12 * Math.sin(i / 10));');
      const zoom = await measureFrames(page, args.frames,
        `window.explorer.zoomAt(i < ${args.frames / 2} ? 1.04 : 1 / 1.04, innerWidth / 2, innerHeight / 2);`);
      for (const [name, m] of [['pan', pan], ['zoom', zoom]]) {
        console.log(`  ${name.padEnd(4)} frame interval  ${format(summarize(m.intervals))}`);
        console.log(`  ${name.padEnd(4)} renderNow()     ${format(summarize(m.renders))}`);
      }
      assertNoPageErrors(errors);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
