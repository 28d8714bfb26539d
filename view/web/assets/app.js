// The live web view of gtnh-agent: the map, the bot and the run, fed by
// /api/state, /api/map and the event stream /api/events (or, replaying a
// recording, by the frame the slider picks).
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const canvas = $('map');
  const ctx = canvas.getContext('2d');
  const S = {
    status: null, steps: [], events: new Map(), grid: null,
    gridWant: '', gridHave: '', fetching: false, fetchedAt: -1e9, later: 0,
    cx: 0, cz: 0, scale: 6, follow: true, maxy: 255,
    frame: -1, drawn: 0, planOpen: new Map(),
  };
  window.gtnhView = S; // for tests and the curious

  async function getJSON(url) {
    const r = await fetch(url, { cache: 'no-store' });
    if (!r.ok) throw new Error(url + ': ' + r.status);
    return r.json();
  }
  const q = (o) => Object.entries(o).map(([k, v]) => k + '=' + encodeURIComponent(v)).join('&');
  const text = (el, s) => { el.textContent = s; };

  function applyStatus(st) {
    S.status = st;
    text($('title'), st.title || 'gtnh-agent');
    text($('goal'), st.goal ? 'goal: ' + st.goal : '');
    const p = st.pos;
    text($('pos'), st.known ? `${p.x.toFixed(1)} ${p.y.toFixed(1)} ${p.z.toFixed(1)} (${st.dimension || '?'}), heading ${st.heading}°` : 'unknown');
    text($('health'), st.known ? st.health.toFixed(0) + ' / 20' : '?');
    text($('food'), st.known ? st.food.toFixed(0) + ' / 20' : '?');
    text($('tier'), st.tier || '?');
    text($('time'), st.known ? `${st.time_of_day} (tick ${st.tick})` : '?');
    text($('outcome'), st.outcome || (st.mode === 'replay' ? 'recording' : 'running'));
    renderPlan(st);
    const inv = $('inventory');
    inv.replaceChildren(...st.inventory.map((it) => {
      const li = document.createElement('li');
      li.textContent = `${it.count} × ${it.id}`;
      return li;
    }));
    if (!st.inventory.length) { const li = document.createElement('li'); li.textContent = 'empty'; inv.append(li); }
    if (S.follow && st.known) { S.cx = st.feet.x; S.cz = st.feet.z; }
    wantGrid();
    draw();
  }

  function renderPlan(st) {
    const el = $('plan');
    el.replaceChildren();
    const d = st.decision;
    if (!d) {
      el.textContent = st.mode === 'replay' && st.replay && !st.replay.notes ? 'this recording holds no plan (an older agent made it)' : 'no decision yet';
      return;
    }
    const line = (cls, s) => { const div = document.createElement('div'); div.className = cls; div.textContent = s; el.append(div); };
    if (st.goal) line('goal', 'goal: ' + st.goal);
    if (st.outcome) line('next', '  run ended: ' + st.outcome + '; the last decision:');
    else if (d.unmet && d.unmet.length) line('unmet', '  still needs: ' + d.unmet.join('; '));
    if (d.done) line('next', '  └ done');
    else if (d.skill) line('next', `  └ step ${d.step}: ${d.skill}${d.params ? ' ' + d.params : ''}`);
    if (d.reason) line('reason', '      because: ' + d.reason);
    if (d.error) line('unmet', '      planner: ' + d.error);
    if (d.tree) {
      const box = document.createElement('div');
      box.className = 'tree';
      box.id = 'plantree';
      box.append(planNode(d.tree, ''));
      el.append(box);
    }
  }

  // planNode draws a node of the plan tree: a node with children folds
  // (open on the way to the step and where the plan is stuck, or as the
  // user left it), a leaf is one line; the step chosen now is highlighted.
  function planNode(n, path) {
    path += '/' + n.label;
    const label = document.createElement('span');
    label.className = 'pn pn-' + (n.state || 'none');
    label.textContent = (n.state === 'step' ? '→ ' : '') + n.label + (n.note ? ' (' + n.note + ')' : '');
    label.title = n.state || '';
    if (!n.children || !n.children.length) {
      const div = document.createElement('div');
      div.className = 'leaf';
      div.append(label);
      return div;
    }
    const det = document.createElement('details');
    const def = n.state === 'active' || n.state === 'stuck';
    const open = S.planOpen.get(path);
    det.open = open === undefined ? def : open;
    det.addEventListener('toggle', () => {
      if (det.open === def) S.planOpen.delete(path); else S.planOpen.set(path, det.open);
    });
    const sum = document.createElement('summary');
    sum.append(label);
    det.append(sum, ...n.children.map((c) => planNode(c, path)));
    return det;
  }

  // clearSteps empties the step log (a replay shows each moment's own).
  function clearSteps() {
    S.steps = [];
    $('steps').replaceChildren();
    text($('stepcount'), '(0)');
  }

  function addSteps(steps) {
    if (!steps || !steps.length) return;
    const body = $('steps');
    for (const s of steps) {
      S.steps.push(s);
      const tr = document.createElement('tr');
      const cells = [String(s.step), s.skill + (s.params ? ' ' + s.params : '') + (s.reflex ? ' [' + s.reflex + ']' : ''), s.verdict];
      for (const c of cells) { const td = document.createElement('td'); td.textContent = c; tr.append(td); }
      tr.children[2].className = 'v-' + s.verdict;
      const td = document.createElement('td');
      const parts = [];
      if (s.change) parts.push(s.change);
      if (s.error) parts.push(s.error);
      td.textContent = parts.join('; ');
      for (const f of s.failed || []) { const div = document.createElement('div'); div.className = 'failed'; div.textContent = f; td.append(div); }
      tr.append(td);
      body.prepend(tr);
    }
    while (body.children.length > 500) body.lastChild.remove();
    text($('stepcount'), `(${S.steps.length})`);
  }

  function addEvents(events) {
    for (const e of events || []) S.events.set(e.seq, e);
    if (S.events.size > 500) {
      const keys = [...S.events.keys()].sort((a, b) => a - b);
      for (const k of keys.slice(0, S.events.size - 500)) S.events.delete(k);
    }
  }

  // The map: fetched when the world changed, the view moved or the depth
  // changed; one request at a time.
  function wantGrid() {
    const r = Math.min(64, Math.ceil(Math.max(canvas.width, canvas.height) / S.scale / 2) + 2);
    const params = { x: Math.round(S.cx), z: Math.round(S.cz), r: r, maxy: S.maxy };
    if (S.frame >= 0) params.frame = S.frame;
    const rev = S.status ? S.status.map_rev : 0;
    const want = q(params) + '#' + rev;
    S.gridWant = want;
    if (S.fetching || want === S.gridHave) return;
    // The world changing under the same view is fetched at most once a
    // second (the bot's marker moves with every update regardless); a
    // view moved, zoomed or sliced is fetched at once.
    const sameView = S.gridHave.split('#')[0] === want.split('#')[0];
    const wait = sameView ? 1000 - (performance.now() - S.fetchedAt) : 0;
    if (wait > 0) {
      if (!S.later) S.later = setTimeout(() => { S.later = 0; wantGrid(); }, wait);
      return;
    }
    fetchGrid();
  }
  async function fetchGrid() {
    S.fetching = true;
    S.fetchedAt = performance.now();
    const want = S.gridWant;
    try {
      S.grid = await getJSON('api/map?' + want.split('#')[0]);
      S.gridHave = want;
      renderLegend();
      draw();
    } catch (e) {
      console.warn('map:', e.message);
    } finally {
      S.fetching = false;
      if (S.gridWant !== S.gridHave && S.gridWant !== want) wantGrid();
    }
  }

  function renderLegend() {
    const seen = new Map();
    for (const l of S.grid.looks) if (!seen.has(l.kind)) seen.set(l.kind, l.color);
    const items = [...seen.entries()].map(([k, c]) => {
      const span = document.createElement('span');
      const sw = document.createElement('span');
      sw.className = 'sw'; sw.style.background = c;
      span.append(sw, k);
      return span;
    });
    const extra = [['bot', '#ff2020'], ['route', '#ffeb3b'], ['dig', '#ff8000'], ['place', '#30ffc0'], ['known machine', '#ff40ff'], ['ore at the top', '#ffd700']];
    for (const [k, c] of extra) {
      const span = document.createElement('span'); const sw = document.createElement('span');
      sw.className = 'sw'; sw.style.background = c; span.append(sw, k); items.push(span);
    }
    $('legend').replaceChildren(...items);
  }

  function hexRGB(h) { return [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)]; }

  // Block (x, z) to canvas pixels: the view's centre is the canvas's.
  function toScreen(x, z) {
    return [canvas.width / 2 + (x - S.cx) * S.scale, canvas.height / 2 + (z - S.cz) * S.scale];
  }
  function toBlock(px, py) {
    return [Math.floor(S.cx + (px - canvas.width / 2) / S.scale), Math.floor(S.cz + (py - canvas.height / 2) / S.scale)];
  }

  function draw() {
    const W = canvas.width, H = canvas.height, sc = S.scale;
    ctx.fillStyle = '#101113';
    ctx.fillRect(0, 0, W, H);
    const g = S.grid;
    if (g) {
      const rgb = g.looks.map((l) => hexRGB(l.color));
      const img = ctx.createImageData(W, H);
      const d = img.data;
      for (let py = 0; py < H; py++) {
        const bz = Math.floor(S.cz + (py - H / 2) / sc) - g.z0;
        if (bz < 0 || bz >= g.h) continue;
        for (let px = 0; px < W; px++) {
          const bx = Math.floor(S.cx + (px - W / 2) / sc) - g.x0;
          if (bx < 0 || bx >= g.w) continue;
          const i = bz * g.w + bx;
          const y = g.y[i];
          // The map picture's shading (mapview.Shade): 6 % a block lighter
          // or darker than the column to the north, between 0.7 and 1.3.
          const ny = bz > 0 ? g.y[i - g.w] : -1;
          const f = y >= 0 && ny >= 0 ? Math.max(0.7, Math.min(1.3, 1 + 0.06 * (y - ny))) : 1;
          const c = rgb[g.k[i]];
          const o = (py * W + px) * 4;
          d[o] = Math.min(255, c[0] * f); d[o + 1] = Math.min(255, c[1] * f); d[o + 2] = Math.min(255, c[2] * f); d[o + 3] = 255;
        }
      }
      ctx.putImageData(img, 0, 0);
      ctx.fillStyle = '#ffd700';
      for (const o of g.ores) {
        const [x, y] = toScreen(o.pos.x + 0.5, o.pos.z + 0.5);
        ctx.beginPath(); ctx.arc(x, y, Math.max(2, sc / 3), 0, 2 * Math.PI); ctx.fill();
      }
    }
    const st = S.status;
    if (!st) return;
    ctx.strokeStyle = '#ff40ff'; ctx.lineWidth = 2;
    for (const m of st.machines || []) {
      const [x, y] = toScreen(m.pos.x, m.pos.z);
      ctx.strokeRect(x, y, sc, sc);
    }
    const mv = st.move;
    if (mv && mv.path && mv.path.length > 1) {
      ctx.strokeStyle = '#ffeb3b'; ctx.lineWidth = Math.max(1.5, sc / 4);
      ctx.beginPath();
      mv.path.forEach((p, i) => { const [x, y] = toScreen(p.x + 0.5, p.z + 0.5); if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
      ctx.stroke();
    }
    if (mv) {
      const [x, y] = toScreen(mv.to.x + 0.5, mv.to.z + 0.5);
      ctx.strokeStyle = '#ffeb3b'; ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.arc(x, y, Math.max(4, sc), 0, 2 * Math.PI); ctx.stroke();
    }
    const evs = [...S.events.values()].slice(-64);
    evs.forEach((e, i) => {
      if (e.kind === 'move') return;
      const alpha = 0.35 + 0.65 * (i + 1) / evs.length;
      const [x, y] = toScreen(e.pos.x, e.pos.z);
      ctx.globalAlpha = alpha;
      if (e.kind === 'dig') {
        ctx.strokeStyle = e.code && e.code !== 'ok' ? '#ff2020' : '#ff8000'; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x + sc, y + sc); ctx.moveTo(x + sc, y); ctx.lineTo(x, y + sc); ctx.stroke();
      } else {
        ctx.fillStyle = '#30ffc0'; ctx.fillRect(x + sc / 4, y + sc / 4, sc / 2, sc / 2);
      }
      ctx.globalAlpha = 1;
    });
    if (st.known) {
      const [x, y] = toScreen(st.pos.x, st.pos.z);
      const a = (st.heading - 90) * Math.PI / 180;
      const r = Math.max(7, sc * 1.2);
      ctx.fillStyle = '#ff2020'; ctx.strokeStyle = '#ffffff'; ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(x + r * Math.cos(a), y + r * Math.sin(a));
      ctx.lineTo(x + r * 0.6 * Math.cos(a + 2.5), y + r * 0.6 * Math.sin(a + 2.5));
      ctx.lineTo(x + r * 0.6 * Math.cos(a - 2.5), y + r * 0.6 * Math.sin(a - 2.5));
      ctx.closePath(); ctx.fill(); ctx.stroke();
      S.bot = [Math.round(x), Math.round(y)];
    }
    S.drawn++;
  }

  // Pan by dragging, zoom with the wheel or the buttons.
  let drag = null;
  canvas.addEventListener('mousedown', (e) => { drag = [e.clientX, e.clientY, S.cx, S.cz]; });
  window.addEventListener('mouseup', () => { drag = null; });
  canvas.addEventListener('mousemove', (e) => {
    const rect = canvas.getBoundingClientRect();
    const [bx, bz] = toBlock((e.clientX - rect.left) * canvas.width / rect.width, (e.clientY - rect.top) * canvas.height / rect.height);
    hover(bx, bz);
    if (!drag) return;
    S.follow = false; $('follow').checked = false;
    S.cx = drag[2] - (e.clientX - drag[0]) / S.scale;
    S.cz = drag[3] - (e.clientY - drag[1]) / S.scale;
    draw(); wantGrid();
  });
  canvas.addEventListener('wheel', (e) => { e.preventDefault(); zoom(e.deltaY < 0 ? 1 : -1); }, { passive: false });
  function zoom(dir) { S.scale = Math.max(2, Math.min(24, S.scale + dir * (S.scale >= 8 ? 2 : 1))); draw(); wantGrid(); }
  $('zoomin').addEventListener('click', () => zoom(1));
  $('zoomout').addEventListener('click', () => zoom(-1));
  $('follow').addEventListener('change', (e) => { S.follow = e.target.checked; if (S.follow && S.status) applyStatus(S.status); });
  $('depth').addEventListener('input', (e) => {
    S.maxy = +e.target.value;
    text($('depthval'), S.maxy >= 255 ? 'surface' : 'y ≤ ' + S.maxy);
    wantGrid();
  });

  function hover(bx, bz) {
    const g = S.grid;
    let s = `x ${bx}, z ${bz}`;
    if (g) {
      const i = (bz - g.z0) * g.w + (bx - g.x0);
      if (bx >= g.x0 && bx < g.x0 + g.w && bz >= g.z0 && bz < g.z0 + g.h) {
        const l = g.looks[g.k[i]];
        s += g.y[i] < 0 ? `: ${l.label}` : `: ${l.label} at y ${g.y[i]}`;
        for (const o of g.ores) if (o.pos.x === bx && o.pos.z === bz) s += `; ore: ${o.name} at y ${o.pos.y}`;
      }
    }
    text($('hover'), s);
  }

  function live() {
    const es = new EventSource('api/events');
    es.addEventListener('open', () => { const c = $('conn'); c.textContent = 'live'; c.className = 'conn live'; });
    es.addEventListener('error', () => { const c = $('conn'); c.textContent = 'reconnecting…'; c.className = 'conn lost'; });
    es.addEventListener('update', (e) => {
      const u = JSON.parse(e.data);
      addSteps((u.steps || []).filter((s) => !S.steps.length || s.seq > S.steps[S.steps.length - 1].seq));
      addEvents(u.events);
      applyStatus(u.status);
    });
  }

  async function replay(info) {
    $('replay').classList.remove('hidden');
    const c = $('conn'); c.textContent = 'recording'; c.className = 'conn';
    const slider = $('slider');
    slider.max = String(info.frames - 1);
    let busy = false, want = info.frames - 1;
    async function show(i) {
      want = i;
      if (busy) return;
      busy = true;
      try {
        while (true) {
          const n = want;
          S.frame = n;
          const st = await getJSON('api/state?frame=' + n);
          text($('frametime'), (st.replay.at_ms / 1000).toFixed(1) + ' s of ' + (info.duration_ms / 1000).toFixed(1) + ' s');
          clearSteps();
          addSteps(st.steps);
          applyStatus(st);
          if (want === n) break;
        }
      } finally { busy = false; }
    }
    slider.addEventListener('input', () => show(+slider.value));
    slider.value = String(info.frames - 1);
    await show(info.frames - 1);
  }

  async function start() {
    const st = await getJSON('api/state');
    addSteps(st.steps);
    addEvents(st.events);
    if (st.mode === 'replay' && st.replay) { await replay(st.replay); return; }
    applyStatus(st);
    live();
  }
  start().catch((e) => { const c = $('conn'); c.textContent = 'error: ' + e.message; c.className = 'conn lost'; });
})();
