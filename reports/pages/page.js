// SPDX-License-Identifier: Apache-2.0
// allocgate's pages: draws the charts (Chart.js) and flame graphs
// (d3-flame-graph) that the page's data, a JSON script element written by
// reports/pages/page.cpp, describes:
//
//   charts: [{id, title, x_title, x_log, y_log, labels?, tooltip_titles?, series}]
//     A chart into the element with that id. With labels, the x axis is those
//     categories and each series has values[] and texts[] (null: no figure);
//     without, each series has points [{x, y, text}]. A series with low[] and
//     high[] (one per value or point) is drawn with that band. texts are the
//     figures exactly as the page's tables print them: tooltips show them.
//     marks (category charts): the indices of points drawn larger, in orange,
//     and said in their tooltip (a history's runs where a figure changed).
//     labels may name an entry of axes instead: its labels and
//     tooltip_titles, carried once for the many charts that share them.
//   axes: {name: {labels, tooltip_titles}} (a history's runs).
//   flames: [{id, title, differential, figures, tree}]
//     A flame graph into that element. A node is {name, location, hint,
//     figures: [allocs, bytes, temporaries] per operation (or what the
//     graph's own figures name: a suite's allocs, bytes, leaked bytes),
//     leaked (drawn red), children} (not
//     v or c, which d3-flame-graph reads as value and children); in a
//     differential graph also base: [allocs, bytes, temporaries] and change
//     (new, grown, shrunk, gone, same).
//
// Each is drawn as it comes near the screen (a page of 100,000 cases draws
// what a reader sees); what the page cut was cut where it was written.
//
// Everything in the data came from a report, so every text goes into the
// page as text, or through html() after escape().
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('allocgate-data').textContent);
  const number = new Intl.NumberFormat('en-US', {maximumFractionDigits: 3});
  // Series that coincide stay visible: each has its own point shape, dash
  // and size, the first drawn largest and underneath.
  const colors = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
  const shapes = ['circle', 'rect', 'triangle', 'rectRot', 'star', 'crossRot', 'rectRounded', 'cross'];
  const dashes = [[], [6, 3], [2, 2], [8, 3, 2, 3]];

  // Names are shown as the page's tables show them (allocgate's html_text):
  // a control character, a bidirectional override or isolate, a line or
  // paragraph separator, as its code point, so that none reorders, spoofs or
  // breaks the text around it in a chart, a flame graph or a tooltip.
  const hidden = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]/g;
  function visible(text) {
    return String(text).replace(hidden, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  }
  function visibleTree(node) {
    if (typeof node.name === 'string') node.name = visible(node.name);
    if (typeof node.location === 'string') node.location = visible(node.location);
    (node.children || []).forEach(visibleTree);
  }
  // A chart's or flame graph's texts made visible when it is drawn, not at
  // load: a page of ten thousand cases pays for the ones a reader sees.
  function visibleChart(spec) {
    if (typeof spec.title === 'string') spec.title = visible(spec.title);
    if (Array.isArray(spec.labels)) spec.labels = spec.labels.map((l) => (typeof l === 'string' ? visible(l) : l));
    if (Array.isArray(spec.tooltip_titles)) {
      // A title is a string or its lines.
      spec.tooltip_titles = spec.tooltip_titles.map((t) => (Array.isArray(t) ? t.map(visible) : visible(t)));
    }
    (spec.series || []).forEach((series) => { series.name = visible(series.name); });
  }
  function visibleFlame(spec) {
    if (typeof spec.title === 'string') spec.title = visible(spec.title);
    if (spec.tree) visibleTree(spec.tree);
  }

  // Labels many charts share (a history's runs) are carried once, under
  // data.axes, and named by the chart: {labels: "runs"}.
  function sharedAxis(spec) {
    if (typeof spec.labels !== 'string') return;
    const axis = (data.axes || {})[spec.labels] || {labels: []};
    spec.labels = axis.labels.slice();
    if (axis.tooltip_titles) spec.tooltip_titles = axis.tooltip_titles.slice();
  }

  function escape(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
  }

  // A log axis cannot show 0: it is used only where every figure is above 0.
  // Its labels are the powers of ten, or, on an x axis of a few arguments
  // (a ->Range: 8, 64, 512, 4096), the arguments themselves.
  function axis(type, title, log, values) {
    const scale = {
      type: log ? 'logarithmic' : type,
      title: {display: Boolean(title), text: title},
      ticks: {callback: (value) => number.format(value)},
    };
    if (!log && type === 'linear') scale.beginAtZero = true;
    if (type === 'category') delete scale.ticks;
    if (log) {
      const distinct = values ? [...new Set(values)].sort((a, b) => a - b) : [];
      if (distinct.length >= 2 && distinct.length <= 12) {
        const ticks = spaced(distinct);
        scale.afterBuildTicks = (axis) => { axis.ticks = ticks.map((value) => ({value})); };
      } else {
        scale.ticks.callback = (value) => (Number.isInteger(Math.log10(value)) ? number.format(value) : '');
      }
    }
    return scale;
  }

  // Of ascending values on a log axis, those a label apart (an eighth of the
  // axis's span), the first and the last always: 4,096 and 8,192 side by
  // side would print over each other.
  function spaced(values) {
    const gap = Math.log10(values[values.length - 1] / values[0]) / 8;
    const kept = [values[0]];
    for (const v of values.slice(1)) {
      if (Math.log10(v / kept[kept.length - 1]) >= gap) {
        kept.push(v);
      } else if (v === values[values.length - 1] && kept.length > 1) {
        kept[kept.length - 1] = v;
      }
    }
    return kept;
  }

  function datasetsOf(spec, marks) {
    const category = Array.isArray(spec.labels);
    const sets = [];
    // The line says it; points would hide it.
    const many = category ? spec.labels.length > 400 : spec.series.some((s) => s.points.length > 400);
    spec.series.forEach((series, i) => {
      const color = colors[i % colors.length];
      const radius = Math.max(7 - 1.5 * i, 3);
      const values = category ? series.values : series.points.map((p) => ({x: p.x, y: p.y}));
      const texts = category ? series.texts : series.points.map((p) => p.text);
      sets.push({
        label: series.name,
        data: values,
        texts: texts,
        borderColor: color,
        backgroundColor: color,
        pointStyle: shapes[i % shapes.length],
        pointRadius: marks.size || many ? values.map((v, k) => (marks.has(k) ? 7 : many ? 0 : 3)) : radius,
        pointBackgroundColor: marks.size ? values.map((v, k) => (marks.has(k) ? '#e6550d' : color)) : color,
        pointHoverRadius: Math.max(9 - 1.5 * i, 4),
        borderWidth: Math.max(3 - 0.5 * i, 1),
        borderDash: dashes[i % dashes.length],
        spanGaps: false,
        order: spec.series.length - i,  // Chart.js draws a lower order on top: the larger points underneath
      });
      if (series.low && series.high) {
        const edge = (ys) => (category ? ys : series.points.map((p, k) => ({x: p.x, y: ys[k]})));
        const band = {borderWidth: 0, pointRadius: 0, pointHoverRadius: 0, band: true, order: 100 + spec.series.length - i};
        sets.push(Object.assign({label: series.name + ' (fastest)', data: edge(series.low), fill: false}, band));
        sets.push(Object.assign({label: series.name + ' (slowest)', data: edge(series.high), fill: '-1',
                                 backgroundColor: color + '30'}, band));
      }
    });
    return sets;
  }

  function drawChart(spec) {
    sharedAxis(spec);
    visibleChart(spec);
    const marks = new Set(spec.marks || []);
    const holder = document.getElementById(spec.id);
    if (!holder) return;
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', spec.title);
    holder.appendChild(canvas);
    const category = Array.isArray(spec.labels);
    const config = {
      type: spec.type || 'line',
      data: {labels: category ? spec.labels : undefined, datasets: datasetsOf(spec, marks)},
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: category ? undefined : false,
        interaction: {mode: category ? 'index' : 'nearest', axis: 'x', intersect: false},
        plugins: {
          title: {display: true, text: spec.title},
          legend: {
            display: spec.series.length > 1,
            labels: {
              usePointStyle: true,
              filter: (item, chart) => !chart.datasets[item.datasetIndex].band,
              sort: (a, b) => a.datasetIndex - b.datasetIndex,  // the series' order, not the drawing order
            },
          },
          tooltip: {
            filter: (item) => !item.dataset.band && item.dataset.texts[item.dataIndex] != null,
            itemSort: (a, b) => a.datasetIndex - b.datasetIndex,
            callbacks: {
              title: (items) => {
                if (!items.length) return '';
                const i = items[0].dataIndex;
                if (category) {
                  const title = spec.tooltip_titles ? spec.tooltip_titles[i] : String(spec.labels[i]);
                  return marks.has(i) ? [].concat(title, 'changed here') : title;
                }
                return (spec.x_title ? spec.x_title + ' ' : '') + number.format(items[0].parsed.x);
              },
              label: (item) => item.dataset.label + ': ' + item.dataset.texts[item.dataIndex],
            },
          },
        },
        scales: {
          x: category ? axis('category', spec.x_title, false)
                      : axis('linear', spec.x_title, spec.x_log, spec.series.flatMap((s) => s.points.map((p) => p.x))),
          y: axis('linear', spec.y_title || '', spec.y_log),
        },
      },
    };
    holder.chart = new Chart(canvas, config);
  }

  // Flame graphs.
  const stackFigures = ['allocs/op', 'B/op', 'temporaries/op'];
  const changeColors = {new: '#d62728', grown: '#fc9272', shrunk: '#9ecae1', gone: '#3182bd', same: '#d9d9d9'};

  // A differential graph is as wide as its width (what went away stays seen).
  function setValues(node, metric) {
    node.value = metric < 0 ? node.width : node.figures[metric];
    (node.children || []).forEach((child) => setValues(child, metric));
  }

  function figures(v, labels) {
    return v.map((value, i) => number.format(value) + ' ' + labels[i]).join(', ');
  }

  function tooltipHtml(node, labels) {
    let html = '<b>' + escape(node.name) + '</b>';
    if (node.location) html += '<br>' + escape(node.location);
    if (node.base) {
      html += '<br>' + escape(node.change) + ': ' + number.format(node.base[0]) + ' \u2192 ' +
              number.format(node.figures[0]) + ' allocs/op, ' + number.format(node.base[1]) + ' \u2192 ' +
              number.format(node.figures[1]) + ' B/op';
    } else {
      html += '<br>' + escape(figures(node.figures, labels));
    }
    if (node.hint) html += '<br>fix: ' + escape(node.hint);
    return html;
  }

  function drawFlame(spec) {
    const holder = document.getElementById(spec.id);
    if (!holder) return;
    visibleFlame(spec);
    const controls = document.createElement('div');
    controls.className = 'flame-controls';
    let metric = spec.differential ? -1 : 0;
    const labels = spec.figures || stackFigures;
    if (!spec.differential) {
      const select = document.createElement('select');
      select.setAttribute('aria-label', 'width by');
      labels.forEach((label, index) => select.add(new Option('width: ' + label, String(index))));
      select.addEventListener('change', () => {
        metric = Number(select.value);
        setValues(spec.tree, metric);
        chart.update(spec.tree);
      });
      controls.appendChild(select);
    }
    const search = document.createElement('input');
    search.type = 'search';
    search.placeholder = 'search frames';
    search.addEventListener('input', () => (search.value ? chart.search(search.value) : chart.clear()));
    const reset = document.createElement('button');
    reset.textContent = 'reset zoom';
    reset.addEventListener('click', () => chart.resetZoom());
    controls.append(search, reset);
    holder.appendChild(controls);
    const graph = document.createElement('div');
    holder.appendChild(graph);

    const tip = flamegraph.tooltip.defaultFlamegraphTooltip().html((d) => tooltipHtml(d.data, labels));
    const chart = flamegraph()
      .width(Math.max(holder.clientWidth, 480))
      .cellHeight(18)
      .minFrameSize(1)
      .transitionDuration(250)
      .selfValue(false)
      .sort((a, b) => b.value - a.value || (a.data.name < b.data.name ? -1 : 1))
      .title('')
      .tooltip(tip)
      // What is typed is text, not a regular expression: names are full of "(" and "<".
      .setSearchMatch((d, term) => Boolean(term) && d.data.name.includes(term))
      .setColorMapper((d, original) => {
        if (d.data.change) return changeColors[d.data.change];
        // A graph of tests (its own figures): blue, and what leaks red, so
        // that a leak is not one warm colour among the flame's others.
        if (spec.figures) return d.data.leaked ? '#d62728' : '#9ecae1';
        if (d.data.name === '[truncated]') return '#bdbdbd';
        return original;
      });
    setValues(spec.tree, metric);
    holder.flame = chart;
    d3.select(graph).datum(spec.tree).call(chart);
  }

  // Charts and flame graphs are drawn as they come near the screen, those on
  // the first screen at once: a page of ten thousand cases draws what a
  // reader sees, and opens as fast as a page of ten. A flame graph in a
  // closed <details> waits for it to be opened. Holders are in page order,
  // so the first one below the first screen ends the measuring.
  const margin = 400;
  const later = new IntersectionObserver((entries) => entries.forEach((entry) => {
    if (!entry.isIntersecting) return;
    later.unobserve(entry.target);
    entry.target.draw();
  }), {rootMargin: margin + 'px'});
  function whenNear(holder, draw) {
    holder.draw = draw;
    later.observe(holder);
  }
  let belowFirstScreen = false;
  function whenShown(spec, draw) {
    const holder = document.getElementById(spec.id);
    if (!holder) return;
    const details = holder.closest('details');
    if (details && !details.open) {
      details.addEventListener('toggle', function once() {
        if (!details.open) return;
        details.removeEventListener('toggle', once);
        whenNear(holder, () => draw(spec));
      });
      return;
    }
    if (!belowFirstScreen && holder.getBoundingClientRect().top < window.innerHeight + margin) return draw(spec);
    belowFirstScreen = true;
    whenNear(holder, () => draw(spec));
  }
  const drawn = [];
  (data.charts || []).forEach((spec) => drawn.push({spec, draw: drawChart}));
  (data.flames || []).forEach((spec) => drawn.push({spec, draw: drawFlame}));
  // In page order, so that measuring stops at the first holder below the first screen.
  const position = new Map();
  document.querySelectorAll('.chart[id], .flame[id]').forEach((holder, i) => position.set(holder.id, i));
  drawn.sort((a, b) => (position.get(a.spec.id) ?? Infinity) - (position.get(b.spec.id) ?? Infinity));
  drawn.forEach(({spec, draw}) => whenShown(spec, draw));

  // A table of tests sorts by any column: a click on its heading, or Enter
  // on it (again: the other way). A number cell's value is its data-v.
  function sortable(table) {
    const head = table.tHead && table.tHead.rows[0];
    const body = table.tBodies[0];
    if (!head || !body) return;
    Array.from(head.cells).forEach((th, column) => {
      th.tabIndex = 0;
      th.setAttribute('aria-sort', 'none');
      const key = (row) => {
        const cell = row.cells[column];
        return cell.dataset.v !== undefined ? Number(cell.dataset.v) : cell.textContent;
      };
      const sort = () => {
        const descending = th.getAttribute('aria-sort') !== 'descending';
        const rows = Array.from(body.rows);
        rows.sort((a, b) => {
          const x = key(a), y = key(b);
          const order = typeof x === 'number' ? x - y : x.localeCompare(y);
          return descending ? -order : order;
        });
        Array.from(head.cells).forEach((cell) => cell.setAttribute('aria-sort', 'none'));
        th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
        body.append(...rows);
      };
      th.addEventListener('click', sort);
      th.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter' && event.key !== ' ') return;
        event.preventDefault();
        sort();
      });
    });
  }
  document.querySelectorAll('table.sortable').forEach(sortable);
  // From the page's navigation to all drawn: what a reader waits.
  document.body.dataset.renderMs = String(Math.round(performance.now()));
})();
