// SPDX-License-Identifier: Apache-2.0
// Opens a page allocgate wrote in Debian's Chromium (puppeteer-core, from
// reports/pages/package-lock.json) and uses it as a reader would: no script
// error; every chart drawn by Chart.js with its figures; every flame graph
// open on the page drawn by d3-flame-graph, with none of the runner's frames;
// a chart's tooltip giving the table's exact text; a frame's tooltip; a click
// on a frame zooming into it; the search box finding a frame. Prints what it measured (render time, size)
// and takes a screenshot. The render time is printed, and checked only
// against --max-ms when given (by hand, on an idle machine).
//
// Usage: node page_browser_test.js PAGE SCREENSHOT [--charts N] [--flames N]
//        [--differential] [--tooltip-text TEXT] [--marks COMMITS] [--max-ms MS] [--tests]
//        [--visible TEXT] [--large CUT]
// --visible: TEXT is shown somewhere, and no text drawn holds a control
// character, a bidirectional override or a line separator raw, nor "\\u003c".
// --large: a page of a large report. At load, before any
// scrolling, no chart or flame graph below the first screen is drawn; the
// page says what it cut on its first screen (its #cut element holds CUT;
// CUT "-": nothing is cut, and no #cut); a table's heading
// sorts it. The page is not scrolled through: it is too long for that.
// --tests: a test report's page: the suite at a glance drawn at load (a
// leaking test red, a clean one not), its tables sort by a click on a
// heading, both ways, and a test's flame graph is drawn when its details are
// opened.
// --marks: every chart with marked points (a history's changes) marks the
// runs of exactly these commits (comma-separated), and one chart at least does.
// Exit 0: pass; 1: a check failed; 77: no Chromium (ctest: skipped).
'use strict';
const fs = require('fs');
const path = require('path');
const puppeteer = require(path.join(__dirname, '../pages/node_modules/puppeteer-core'));

const args = process.argv.slice(2);
const [pageFile, screenshot] = args;
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args[i + 1];
};
const expectCharts = Number(option('--charts', '-1'));
const expectFlames = Number(option('--flames', '-1'));
const tooltipText = option('--tooltip-text', null);
// A time bound only when asked for: on a shared machine a timed check flakes.
const maxMs = Number(option('--max-ms', 'Infinity'));
const differential = args.includes('--differential');
const tests = args.includes('--tests');
const marks = option('--marks', null);
const visibleOnly = option('--visible', null);
const large = option('--large', null);  // a text the page must show, its controls as code points
// The runner's frames, main's and libc's: never in a flame graph.
const outside =
  /^(main|_start|__libc_start_main|__libc_start_call_main|allocgate::reports::count_case|allocgate::command::|allocgate::workloads::.*Case::run$)/;

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
if (!browserPath) {
  console.log('skipped: chromium is not installed (ci/install-deps.sh test installs it)');
  process.exit(77);
}

function fail(message) {
  console.log('FAIL: ' + message);
  process.exitCode = 1;
}

(async () => {
  const browser = await puppeteer.launch({
    executablePath: browserPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({width: 1400, height: 1000});
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('request', (r) => !r.url().startsWith('file:') && !r.url().startsWith('data:') &&
                               errors.push('a request outside the page: ' + r.url()));
    await page.goto('file://' + path.resolve(pageFile), {waitUntil: 'load'});
    await page.waitForFunction(() => document.body.dataset.renderMs !== undefined, {timeout: 10000});
    const renderMs = await page.evaluate(() => Number(document.body.dataset.renderMs));
    if (errors.length) fail('script errors: ' + errors.join(' | '));
    if (large !== null) {
      const atLoad = await page.evaluate(() => {
        const below = (h) => h.getBoundingClientRect().top > window.innerHeight + 400;
        const drawn = [...document.querySelectorAll('.chart, .flame')].filter((h) => h.chart || h.flame);
        const cut = document.getElementById('cut');
        return {drawn: drawn.length, below: drawn.filter(below).map((h) => h.id), nodes: document.getElementsByTagName('*').length,
                cut: cut ? cut.textContent : null, cutShown: Boolean(cut) && cut.getBoundingClientRect().top < window.innerHeight};
      });
      if (atLoad.below.length) fail(`drawn at load below the first screen: ${atLoad.below.slice(0, 5).join(', ')}`);
      if (large === '-') {
        if (atLoad.cut !== null) fail(`nothing should be cut, yet the page says: ${atLoad.cut}`);
      } else {
        if (atLoad.cut === null || !atLoad.cut.includes(large)) fail(`the page does not say ${JSON.stringify(large)}: ${atLoad.cut}`);
        if (!atLoad.cutShown) fail('what is cut is not said on the first screen');
      }
      const sortable = await page.$('table.sortable th:nth-child(2)');
      if (sortable) {
        await sortable.click();
        const down = await page.evaluate(() => [...document.querySelector('table.sortable').tBodies[0].rows]
                                                 .map((row) => Number(row.cells[1].dataset.v)));
        if (!down.every((v, i) => i === 0 || down[i - 1] >= v)) fail('a click did not sort the first table');
      }
      await page.screenshot({path: screenshot, fullPage: false});
      console.log(`${pageFile}: ${fs.statSync(pageFile).size} bytes, ${atLoad.nodes} elements, ${atLoad.drawn} ` +
                  `charts and flame graphs drawn at load, loaded and drawn in ${Math.round(renderMs)} ms; ${atLoad.cut}`);
      if (renderMs > maxMs) fail(`drawn in ${Math.round(renderMs)} ms, over ${maxMs}`);
      if (!process.exitCode) console.log('PASS');
      return;
    }

    // Scroll through the page, as a reader does: charts below the first
    // screen are drawn as they come near it.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo(0, y);
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      }
    });
    const charts = await page.evaluate(() => [...document.querySelectorAll('.chart')].map((h) => {
      const canvas = h.querySelector('canvas');
      const r = canvas ? canvas.getBoundingClientRect() : {width: 0, height: 0};
      const points = h.chart ? h.chart.data.datasets.reduce((n, d) => n + d.data.length, 0) : 0;
      return {id: h.id, drawn: Boolean(h.chart) && r.width > 100 && r.height > 100, points};
    }));
    const undrawn = charts.filter((c) => !c.drawn || c.points === 0);
    if (undrawn.length) fail('charts not drawn: ' + JSON.stringify(undrawn));
    if (expectCharts >= 0 && charts.length !== expectCharts) fail(`${charts.length} charts, expected ${expectCharts}`);

    const flames = await page.evaluate(() => [...document.querySelectorAll('.flame')].filter((h) => h.flame).map((h) => {
      const names = [...h.querySelectorAll('svg g')].map((g) => g.__data__ && g.__data__.data.name).filter(Boolean);
      return {id: h.id, frames: names.length, names};
    }));
    const empty = flames.filter((f) => f.frames === 0);
    if (empty.length) fail('flame graphs without frames: ' + JSON.stringify(empty.map((f) => f.id)));
    for (const f of flames) {
      const foreign = f.names.filter((n) => outside.test(n));
      if (foreign.length) fail(`${f.id} draws frames outside the measured code: ${foreign.join(', ')}`);
    }
    if (expectFlames >= 0 && flames.length !== expectFlames) fail(`${flames.length} flame graphs drawn, expected ${expectFlames}`);

    if (marks !== null) {
      const marked = await page.evaluate(() => [...document.querySelectorAll('.chart')].map((h) => {
        const data = JSON.parse(document.getElementById('allocgate-data').textContent);
        const spec = data.charts.find((c) => c.id === h.id);
        const labels = typeof spec.labels === 'string' ? data.axes[spec.labels].labels : spec.labels;
        return (spec.marks || []).map((i) => labels[i][0]).join(',');
      }).filter((m) => m));
      if (!marked.length) fail('no chart marks a change');
      const wrong = marked.filter((m) => m !== marks);
      if (wrong.length) fail(`charts mark ${JSON.stringify(wrong)}, not ${marks}`);
      console.log(`${marked.length} charts mark ${marks}`);
    }

    // A chart's tooltip: hover its first point.
    if (charts.length) {
      const at = await page.evaluate((id) => {
        const h = document.getElementById(id);
        h.scrollIntoView();
        const meta = h.chart.getDatasetMeta(0);
        const r = h.querySelector('canvas').getBoundingClientRect();
        return {x: r.left + meta.data[0].x, y: r.top + meta.data[0].y};
      }, charts[0].id);
      await page.mouse.move(at.x, at.y);
      const {titles, lines} = await page.evaluate((id) => {
        const t = document.getElementById(id).chart.tooltip;
        return t.opacity > 0 ? {titles: t.title || [], lines: t.body.flatMap((b) => b.lines)} : {titles: [], lines: []};
      }, charts[0].id);
      if (!lines.length) fail('no tooltip on the first chart\'s first point');
      // A title of several lines is shown as lines, not as one with its
      // line breaks made visible.
      if (titles.some((l) => l.includes('\\u000a'))) fail(`a tooltip title's line breaks shown: ${JSON.stringify(titles)}`);
      if (tooltipText && !lines.some((l) => l.includes(tooltipText))) {
        fail(`the tooltip says ${JSON.stringify(lines)}, not ${tooltipText}`);
      }
      console.log('chart tooltip: ' + titles.concat(lines).join(' | '));
    }

    // A frame's tooltip, then a click that zooms into it.
    if (flames.length) {
      const id = flames[0].id;
      const frame = await page.evaluate((id) => {
        const h = document.getElementById(id);
        h.scrollIntoView();
        // The widest frame one level above the root: its own tower.
        const gs = [...h.querySelectorAll('svg g')].filter((g) => g.__data__ && g.__data__.depth === 1);
        gs.sort((a, b) => b.getBoundingClientRect().width - a.getBoundingClientRect().width);
        const r = gs[0].getBoundingClientRect();
        const svg = h.querySelector('svg').getBoundingClientRect();
        return {x: r.left + Math.min(r.width / 2, 20), y: r.top + r.height / 2, width: r.width, full: svg.width,
                name: gs[0].__data__.data.name};
      }, id);
      await page.mouse.move(frame.x, frame.y);
      await new Promise((r) => setTimeout(r, 400));
      const tip = await page.evaluate(() => {
        const t = [...document.querySelectorAll('.d3-flame-graph-tip')].find((e) => e.style.display === 'block');
        return t ? t.textContent : '';
      });
      if (!tip.includes(frame.name)) fail(`the frame's tooltip says ${JSON.stringify(tip)}, not its name`);
      if (!(differential ? /\u2192/.test(tip) : /allocs\/op/.test(tip))) fail(`the frame's tooltip has no figures: ${tip}`);
      console.log('frame tooltip: ' + tip);
      await page.mouse.click(frame.x, frame.y);
      await new Promise((r) => setTimeout(r, 800));
      const zoomed = await page.evaluate((id, name) => {
        const g = [...document.getElementById(id).querySelectorAll('svg g')]
                      .find((g) => g.__data__ && g.__data__.depth === 1 && g.__data__.data.name === name);
        return g.getBoundingClientRect().width;
      }, id, frame.name);
      if (frame.width < frame.full * 0.95 && zoomed < frame.full * 0.95) {
        fail(`a click did not zoom: ${frame.width.toFixed(0)} px, then ${zoomed.toFixed(0)} px of ${frame.full.toFixed(0)}`);
      }
      await page.evaluate((id) => document.getElementById(id).flame.resetZoom(), id);
      // The search box highlights the frames whose names hold the text.
      await page.type(`#${id} input[type=search]`, frame.name);
      const found = await page.evaluate((id, name) => [...document.getElementById(id).querySelectorAll('svg g')]
                                                         .filter((g) => g.__data__ && g.__data__.highlight)
                                                         .map((g) => g.__data__.data.name), id, frame.name);
      if (!found.includes(frame.name)) fail(`searching for ${frame.name} highlighted ${JSON.stringify(found)}`);
      await page.mouse.move(0, 0);
      await new Promise((r) => setTimeout(r, 400));
    }

    if (tests) {
      // The suite at a glance, drawn at load: its run, suites and tests as
      // frames; a leaking test's frame red, another's not.
      const glance = await page.evaluate(() => {
        const holder = document.querySelector('section.suite .flame');
        if (!holder || !holder.flame) return null;
        return [...holder.querySelectorAll('svg g')].filter((g) => g.__data__).map((g) => ({
          name: g.__data__.data.name, leaked: Boolean(g.__data__.data.leaked),
          fill: (g.querySelector('rect') || {}).getAttribute ? g.querySelector('rect').getAttribute('fill') : ''}));
      });
      if (!glance) fail('no suite-at-a-glance graph drawn at load');
      else {
        const leaking = glance.find((f) => f.leaked && f.name === 'ADeliberateLeak');
        const clean = glance.find((f) => !f.leaked && f.name === 'CopyOfALongString');
        if (!leaking || leaking.fill !== '#d62728') fail(`the leaking test is not drawn red: ${JSON.stringify(leaking)}`);
        if (!clean || clean.fill === '#d62728') fail(`a clean test is drawn red or missing: ${JSON.stringify(clean)}`);
      }
      // allocs/op, the second column: a click sorts the rows by it, most first; another, fewest first.
      const order = async () => page.evaluate(() => [...document.querySelector('table.sortable').tBodies[0].rows]
                                                      .map((row) => Number(row.cells[1].dataset.v)));
      const sorted = (values, descending) => values.every((v, i) => i === 0 || (descending ? values[i - 1] >= v
                                                                                             : values[i - 1] <= v));
      await page.click('table.sortable th:nth-child(2)');
      const down = await order();
      if (down.length < 2 || !sorted(down, true)) fail(`a click did not sort allocs/op down: ${down}`);
      await page.click('table.sortable th:nth-child(2)');
      const up = await order();
      if (!sorted(up, false) || up[0] === down[0]) fail(`a second click did not sort allocs/op up: ${up}`);
      // No flame graph before its details are opened; one after.
      const opened = await page.evaluate(() => {
        const details = [...document.querySelectorAll('details.flame-case')].find((d) => d.querySelector('.flame'));
        if (!details) return null;
        details.open = true;
        return details.querySelector('.flame').id;
      });
      if (!opened) fail('no test has a flame graph to open');
      await page.waitForFunction((id) => Boolean(document.getElementById(id).flame), {timeout: 5000}, opened);
    }

    if (visibleOnly) {
      // Every text drawn (the tables, the flame graphs' frames, the charts'
      // labels and series): no control, bidirectional override or line
      // separator reaches the page raw, and a backslash is not doubled.
      const texts = await page.evaluate(() => {
        const shown = [...document.body.querySelectorAll('*')]
                          .filter((e) => e.tagName !== 'SCRIPT' && e.tagName !== 'STYLE')
                          .flatMap((e) => [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent));
        const charts = Object.values(window.Chart ? window.Chart.instances : {})
                           .flatMap((c) => [...(c.data.labels || []), ...c.data.datasets.map((d) => d.label)]);
        return shown.concat(charts.map(String));
      });
      const raw = texts.filter((t) => /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/.test(t));
      if (raw.length) fail(`text shown raw: ${JSON.stringify(raw.slice(0, 3))}`);
      if (!texts.some((t) => t.includes(visibleOnly))) fail(`no text shows ${visibleOnly}: ${JSON.stringify(texts.slice(0, 20))}`);
      if (texts.some((t) => t.includes('\\\\u003c'))) fail('a backslash is doubled');
    }

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({path: screenshot, fullPage: false});
    const bytes = fs.statSync(pageFile).size;
    console.log(`${pageFile}: ${bytes} bytes, ${charts.length} charts, ${flames.length} flame graphs drawn, ` +
                `loaded and drawn in ${Math.round(renderMs)} ms`);
    if (renderMs > maxMs) fail(`drawn in ${Math.round(renderMs)} ms, over ${maxMs}`);
  } finally {
    await browser.close();
  }
  if (!process.exitCode) console.log('PASS');
})().catch((e) => {
  console.log('FAIL: ' + e.stack);
  process.exit(1);
});
