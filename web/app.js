/* SPDX-License-Identifier: MIT */
/* app.js - the interactive page: three views over the library compiled to
 * WebAssembly (web/shim.c says what each exported function computes).
 * Plain JavaScript, no framework.  Every decision shown comes from the
 * module; this file only reads the inputs, calls it and draws the result.
 * Parameters in the URL (?view=merging&topo=ring&steps=500, ...) go
 * through the same checks as the ones typed into the forms. */
'use strict';
(function () {
  var S = { m: null, loadStart: performance.now() };

  function $(id) { return document.getElementById(id); }
  function io() { return new Int32Array(S.m.memory.buffer, S.m.ws_io(), 65536); }
  function cstr(p) {
    var b = new Uint8Array(S.m.memory.buffer), e = p, s = '';
    while (b[e]) s += String.fromCharCode(b[e++]);
    return s;
  }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; }); }
  function say(view, text) {
    var el = $(view + '-message');
    el.textContent = text || '';
    el.className = text ? 'message error' : 'message';
  }
  /* A whole number from lo to hi, or an Error naming the field.  (Where the
   * library has a narrower limit, it refuses the value in its own words.) */
  function whole(name, text, lo, hi) {
    var t = String(text).trim();
    if (!/^[0-9]+$/.test(t)) throw new Error(name + ' must be a whole number (got "' + text + '")');
    if (Number(t) < lo || Number(t) > hi) throw new Error(name + ' must be from ' + lo + ' to ' + hi + ' (got ' + t + ')');
    return Number(t);
  }
  /* The library's refusal, in its own words. */
  function refuse(what, code) { return new Error(what + ': ' + cstr(S.m.ws_message()) + ' (code ' + code + ')'); }
  function guarded(view, f) {
    return function () {
      try { say(view, ''); f.apply(null, arguments); }
      catch (e) {
        say(view, e instanceof WebAssembly.RuntimeError
          ? 'the library stopped on a failed precondition (' + e.message + '): press reset' : e.message);
      }
    };
  }
  function colour(src) { return 'hsl(' + (src * 47 % 360) + ',70%,72%)'; }

  /* ------------------------------------------------------------ merging */
  var MG_PAPER = { line: ['1/64', '1/64', '1/32', '1/16', '1/8', '1/4', '1/2'],
                   ring: ['1/4', '1/8', '1/8', '1/16', '1/16', '1/8', '1/4'] };
  var MG_IN = ['P', 'L', 'R'], MG_OUT = ['+x', '-x', 'eject'];
  var mg = { timer: null, topo: 'line', ok: false };

  function mgStop() {
    if (mg.timer) clearInterval(mg.timer);
    mg.timer = null;
    $('mg-play').textContent = 'play';
  }
  function mgSetup() {
    mgStop();
    var topo = $('mg-topo').value, age = $('mg-policy').value === 'age';
    var period = whole('AGE_CLOCK_PERIOD', $('mg-period').value, 0, 4294967295);
    var bias = Math.min(whole('REQ_AGE_BIAS of the network ports', $('mg-bias').value, 0, Infinity), 255);
    var pbias = Math.min(whole('REQ_AGE_BIAS of the processor port', $('mg-pbias').value, 0, Infinity), 255);
    mg.ok = false;
    var r = S.m.mg_setup(topo === 'ring' ? 1 : 0, age ? 1 : 0, period >>> 0, bias, pbias);
    if (r !== 0) { mgDraw(null); throw refuse('the aging configuration', r); }
    mg.topo = topo;
    mg.ok = true;
    mgDraw(S.m.mg_run(0));
  }
  function mgRun(cycles) {
    if (!mg.ok) throw new Error('fix the configuration first (reset)');
    mgDraw(S.m.mg_run(cycles));
  }
  function mgDraw(nodeWords) {
    var net = $('mg-net'), body = $('mg-shares').tBodies[0];
    if (nodeWords === null) { net.innerHTML = ''; body.innerHTML = ''; return; }
    var w = io(), cycle = w[0], total = 0, i, p, o, k, html = '';
    for (i = 0; i < 7; i++) total += w[1 + i];
    for (i = 0; i < 8; i++) {
      var b = 9 + i * nodeWords, won = {};
      var ob = b + 3 + 3 * (2 + 4);
      for (o = 0; o < 3; o++) if (w[ob + 3 * o] >= 0)
        won[w[ob + 3 * o]] = MG_OUT[o] + ' ' + (w[ob + 3 * o + 1] ? 'AGE' : 'RR') + ' ' + w[ob + 3 * o + 2];
      html += '<div class="mg-router"><div class="mg-name">R' + i + (i === 7 ? ' (P7)' : '') +
              '</div><div class="mg-clock">ts ' + w[b] + ' ep ' + w[b + 1] + (w[b + 2] ? ' inhibit' : '') + '</div>';
      for (p = 0; p < 3; p++) {
        var fb = b + 3 + p * 6;
        html += '<div class="mg-fifo' + (p in won ? ' won' : '') + '"><span class="mg-port">' + MG_IN[p] + '</span>';
        for (k = 0; k < 4; k++) {
          var src = w[fb + 2 + k];
          html += src >= 0 ? '<span class="pkt" style="background:' + colour(src) + '">' + src + '</span>' : '<span class="pkt empty"></span>';
        }
        html += '<span class="mg-age">' + (w[fb + 1] >= 0 ? 'age ' + w[fb + 1] : '') + '</span>' +
                (p in won ? '<span class="mg-win">&rarr; ' + won[p] + '</span>' : '') + '</div>';
      }
      html += '</div>';
    }
    net.innerHTML = '<div class="mg-cycle">cycle <b id="mg-cycle">' + cycle + '</b>, ' + total + ' packets delivered to P7</div><div class="mg-row">' + html + '</div>';
    var rows = '';
    for (i = 0; i < 7; i++) {
      var hops = mg.topo === 'ring' ? Math.min(7 - i, i + 1) : 7 - i;
      var share = total ? w[1 + i] / total : 0;
      rows += '<tr id="mg-share-P' + i + '" data-delivered="' + w[1 + i] + '"><td><span class="pkt" style="background:' + colour(i) + '">' + i +
              '</span> P' + i + '</td><td>' + hops + '</td><td>' + w[1 + i] + '</td><td>' + share.toFixed(4) +
              ' <span class="bar" style="width:' + Math.round(share * 200) + 'px"></span></td><td>' + MG_PAPER[mg.topo][i] + '</td></tr>';
    }
    body.innerHTML = rows;
  }
  function mgPlay() {
    if (mg.timer) { mgStop(); return; }
    if (!mg.ok) throw new Error('fix the configuration first (reset)');
    $('mg-play').textContent = 'pause';
    mg.timer = setInterval(function () { if (mg.ok) mgDraw(S.m.mg_run(1)); else mgStop(); }, 250);
  }

  /* --------------------------------------------------------- allocation */
  var AL_NAMES = ['SPAA', 'WFA', 'wrapped WFA', 'PIM1', 'iSLIP-1', 'MCM'];
  var AL_TEXT = [
    'SPAA (seed 002, 3.3): 1. each input arbiter nominates one output (N); 2. each output grants the least recently selected of its nominators; 3. nominations not granted are reset.  Columns where nominations collide are orange: only one of them can win.',
    'WFA (3.2): a wave front from the start cell (S) sweeps down and right; a cell is granted if requested and no cell above or to the left in its wave order was.  The start cell moves one row per allocation.',
    'Wrapped WFA: the wrapped diagonals, from the priority diagonal (outlined) on, each one wave: its cells share no row or column.',
    'PIM1 (3.1): 2. every output grants one requester at random (g); 3. every input accepts one of its grants at random.  Rows with several grants are orange: only one is accepted.  One iteration.',
    'iSLIP-1: PIM with round-robin grant and accept pointers that move only on accepted grants.',
    'MCM: a maximum-cardinality matching (the upper bound).'];
  var al = null;

  function alSetup() {
    var preset = $('al-preset').value === '21364';
    ['al-n', 'al-m', 'al-net'].forEach(function (id) { $(id).disabled = preset; });
    var n = preset ? 16 : whole('n', $('al-n').value, 0, 100000);
    var m = preset ? 7 : whole('m', $('al-m').value, 0, 100000);
    var net = preset ? 0 : whole('network inputs', $('al-net').value, 0, 100000);
    var rotary = $('al-rotary').checked ? 1 : 0;
    var seed = whole('seed', $('al-seed').value, 0, 4294967295);
    al = null;
    $('al-requests').innerHTML = '';
    $('al-results').innerHTML = '';
    var r = S.m.al_setup(preset ? 1 : 0, n, m, net, rotary, seed >>> 0);
    if (r !== 0) throw refuse('the allocator', r);
    var w = io();
    n = w[0]; m = w[1];
    al = { n: n, m: m, conn: Array.from(w.slice(2, 2 + n * m)), net: Array.from(w.slice(2 + n * m, 2 + n * m + n)),
           req: new Array(n * m).fill(0), res: null, rotary: rotary, stage: -1 };
    alDraw();
  }
  function alDrawRequests() {
    var seed = whole('seed', $('al-seed').value, 0, 4294967295);
    var t = String($('al-density').value).trim();
    if (!/^(0(\.[0-9]+)?|1(\.0*)?|\.[0-9]+)$/.test(t)) throw new Error('density must be a number from 0 to 1 (got "' + $('al-density').value + '")');
    if (!al) throw new Error('fix the allocator first (reset)');
    S.m.al_draw(seed >>> 0, Math.round(Number(t) * 1000));
    al.req = Array.from(io().slice(0, al.n * al.m));
    al.res = null;
    $('al-seed').value = String((seed + 1) % 4294967296);
    alDraw();
  }
  function alAllocate() {
    if (!al) throw new Error('fix the allocator first (reset)');
    var w = io(), k, i, words = 0;
    for (i = 0; i < al.n * al.m; i++) w[i] = al.req[i];
    words = S.m.al_allocate();
    w = io();
    al.res = [];
    al.stage = -1;
    for (k = 0; k < AL_NAMES.length; k++) {
      var b = k * words;
      al.res.push({ size: w[b], row: w[b + 1], col: w[b + 2],
                    out: Array.from(w.slice(b + 3, b + 3 + al.n)), nom: Array.from(w.slice(b + 3 + al.n, b + 3 + 2 * al.n)),
                    grant: Array.from(w.slice(b + 3 + 2 * al.n, b + 3 + 2 * al.n + al.m)), agree: w[b + 3 + 2 * al.n + al.m] });
    }
    alDraw();
  }
  /* The stage at which allocator k decides each cell, for stepping through
   * it (null: the page shows only its result).  The decisions are the
   * module's; the stages are the order the paper evaluates the cells in,
   * from the allocator's state before the allocation:
   * SPAA  0 nominate, 1 grant (seed 002, 3.3);
   * PIM1  0 grant, 1 accept (3.1), when the module's grants are known;
   * WFA   wave fronts from the start cell: a cell's wave is its row's rank in
   *       the sweep plus its column's distance from the start column; with
   *       the Rotary Rule the network rows sweep first (3.2, 3.4);
   * wrapped WFA  one wrapped diagonal per stage from the priority diagonal,
   *       network rows first with the Rotary Rule. */
  function alStages(k) {
    var res = al.res[k], n = al.n, m = al.m, i, j, st = [], total;
    var rotary = al.rotary && al.net.some(function (x) { return x; });
    if (k === 0) return { total: 2, stage: null };
    if (k === 3) return res.agree ? { total: 2, stage: null } : null;
    if (k !== 1 && k !== 2) return null;
    var rank = [], passOf = [], counts = [0, 0];
    for (var q = 0; q < n; q++) {
      i = k === 1 ? (res.row + q) % n : q;
      var pass = rotary && !al.net[i] ? 1 : 0;
      passOf[i] = pass;
      rank[i] = counts[pass]++;
    }
    if (k === 1) {
      var span1 = counts[0] ? counts[0] + m - 1 : 0;
      for (i = 0; i < n; i++) for (j = 0; j < m; j++)
        st[i * m + j] = (passOf[i] ? span1 : 0) + rank[i] + (j - res.col + m) % m;
      total = span1 + (counts[1] ? counts[1] + m - 1 : 0);
    } else {
      var s = Math.max(n, m);
      for (i = 0; i < n; i++) for (j = 0; j < m; j++)
        st[i * m + j] = (passOf[i] && counts[0] ? s : 0) + ((j - i + s) % s - res.col + s) % s;
      total = (counts[0] && counts[1] ? 2 : 1) * s;
    }
    return { total: total, stage: st };
  }
  function alMatrix(k) {
    var res = k >= 0 && al.res ? al.res[k] : null, i, j, h = '<table class="matrix">';
    var nomCount = {}, stages = res ? alStages(k) : null, t = al.stage;
    var stepping = stages && t >= 0 && t < stages.total;
    if (res && k === 0) res.nom.forEach(function (o) { if (o >= 0) nomCount[o] = (nomCount[o] || 0) + 1; });
    var grantCount = {};
    if (res && k === 3 && res.agree) res.grant.forEach(function (i) { if (i >= 0) grantCount[i] = (grantCount[i] || 0) + 1; });
    h += '<tr><th></th>';
    for (j = 0; j < al.m; j++) h += '<th>' + j + '</th>';
    h += '</tr>';
    for (i = 0; i < al.n; i++) {
      h += '<tr><th>' + (al.net[i] ? '&#9670;' : '') + i + '</th>';
      for (j = 0; j < al.m; j++) {
        var c = i * al.m + j, cls = [], txt = '';
        if (!al.conn[c]) cls.push('nc');
        else if (al.req[c]) { cls.push('rq'); txt = '&bull;'; }
        if (res) {
          var cellStage = stepping && stages.stage ? stages.stage[c] : -1;
          var decided = !stepping || (k === 0 || k === 3 ? t >= 1 : cellStage <= t);
          if (res.out[i] === j && decided) { cls.push('mt'); txt = 'G'; }
          if (k === 0 && res.nom[i] === j) { cls.push(nomCount[j] > 1 ? 'col' : 'nom'); if (!(res.out[i] === j && decided)) txt = 'N'; }
          if (k === 3 && res.agree && res.grant[j] === i) { cls.push(grantCount[i] > 1 ? 'col' : 'nom'); if (!(res.out[i] === j && decided)) txt = 'g'; }
          if (stepping && stages.stage && cellStage === t && al.conn[c]) cls.push('front');
          if (k === 1 && res.row === i && res.col === j) cls.push('start');
          if (k === 1 && res.row === i && res.col === j && !txt) txt = 'S';
          if (k === 2 && !stepping && (j - i + 2 * Math.max(al.n, al.m)) % Math.max(al.n, al.m) === res.col) cls.push('diag');
        }
        h += '<td class="' + cls.join(' ') + '" data-i="' + i + '" data-j="' + j + '">' + txt + '</td>';
      }
      h += '</tr>';
    }
    return h + '</table>';
  }
  function alCaption(k) {
    var res = al.res[k], stages = alStages(k), t = al.stage;
    if (!stages || t < 0 || t >= stages.total) return res.size + ' matched';
    if (k === 0) return t === 0 ? 'step 1, nominate' : 'steps 2-3, grant';
    if (k === 3) return t === 0 ? 'step 2, grant' : 'step 3, accept';
    return (k === 1 ? 'wave ' : 'diagonal ') + (t + 1) + ' of ' + stages.total;
  }
  function alStep(dir) {
    if (!al || !al.res) throw new Error('allocate first');
    var most = Math.max(alStages(0).total, alStages(1).total, alStages(2).total);
    al.stage = dir === 0 ? -1 : al.stage < 0 ? (dir > 0 ? 0 : most - 1) : al.stage + dir;
    if (al.stage >= most || al.stage < -1) al.stage = -1;
    alDraw();
  }
  function alDraw() {
    if (!al) return;
    var count = al.req.reduce(function (a, b) { return a + b; }, 0);
    $('al-requests').innerHTML = '<div id="al-req" data-n="' + al.n + '" data-m="' + al.m + '" data-rotary="' + al.rotary +
      '" data-cells="' + al.req.join('') + '">' + alMatrix(-1) + '<p>' + count + ' requests</p></div>';
    $('al-explain').innerHTML = AL_TEXT.map(function (t) { return '<p>' + esc(t) + '</p>'; }).join('') +
      '<p>Grey cells have no connection.  &bull; a request, G a granted (matched) cell.  Step through SPAA\'s two steps, ' +
      'WFA\'s wave fronts, the wrapped diagonals and PIM1\'s grant and accept with the stage buttons (outlined: the cells ' +
      'being decided); iSLIP-1 and MCM show their result.  PIM1\'s grants are worked out from its random-number state by ' +
      'the draw protocol seastar_arb.h documents, and shown only when their accepts are the library\'s matching' +
      (al.res && !al.res[3].agree ? ' (they are not, for this allocation: the grants are not shown)' : '') + '.' +
      (al.rotary ? '  Rotary Rule on: SPAA, WFA, wrapped WFA and PIM1 favour the network inputs (&#9670;).' : '') + '</p>';
    var h = '';
    if (al.res) al.res.forEach(function (res, k) {
      h += '<div class="al-panel" id="al-kind-' + k + '" data-kind="' + AL_NAMES[k] + '" data-size="' + res.size +
           '" data-matching="' + res.out.join(',') + '" data-agree="' + res.agree + '"><h3>' + AL_NAMES[k] + ': ' + alCaption(k) + '</h3>' + alMatrix(k) + '</div>';
    });
    $('al-results').innerHTML = h;
    $('al-stage').textContent = !al.res ? '' : al.stage < 0 ? 'showing the results' : 'stage ' + (al.stage + 1);
  }
  function alClick(ev) {
    var td = ev.target.closest('td');
    if (!td || !al || td.dataset.i === undefined) return;
    var c = Number(td.dataset.i) * al.m + Number(td.dataset.j);
    if (!al.conn[c]) { say('al', 'cell (' + td.dataset.i + ', ' + td.dataset.j + ') has no connection'); return; }
    al.req[c] = al.req[c] ? 0 : 1;
    al.res = null;
    alDraw();
  }

  /* ------------------------------------------------------------ routing */
  var RT_METHOD = { dor: 0, seastar: 1, fixed: 2, search: 3 };
  var RT_PORT = ['x+', 'x-', 'y+', 'y-', 'z+', 'z-', 'proc'];
  var rt = { dims: null, faults: [], pick: 'src', route: [], witness: [], failure: 0 };

  function rtParse() {
    var d = String($('rt-dims').value).trim().split('x');
    if (d.length !== 3) throw new Error('torus must be three radices like 4x4x2 (got "' + $('rt-dims').value + '")');
    var dims = d.map(function (t, i) { return whole('radix ' + 'xyz'[i], t, 0, 100000); });
    var f = String($('rt-faults').value).trim(), faults = [];
    if (f) f.split(',').forEach(function (t) {
      var p = t.split(':');
      if (p.length !== 2) throw new Error('a failed link is node:port, like 5:0 (got "' + t + '")');
      faults.push([whole('failed link node', p[0], 0, 1e9), whole('failed link port', p[1], 0, 100)]);
    });
    return { dims: dims, faults: faults, method: RT_METHOD[$('rt-method').value],
             src: whole('source', $('rt-src').value, 0, 1e9), dst: whole('destination', $('rt-dst').value, 0, 1e9) };
  }
  function rtApply() {
    var q = rtParse(), r, i, w;
    rt.dims = null; rt.route = []; rt.witness = [];
    $('rt-verdict').innerHTML = ''; $('rt-route').innerHTML = ''; $('rt-witness').innerHTML = ''; $('rt-svg').innerHTML = '';
    r = S.m.rt_setup(q.dims[0], q.dims[1], q.dims[2]);
    if (r !== 0) throw refuse('the torus ' + q.dims.join('x') + ' (this page draws up to 512 routers)', r);
    rt.dims = q.dims;
    rt.faults = q.faults;
    for (i = 0; i < q.faults.length; i++) {
      r = S.m.rt_fail_link(q.faults[i][0], q.faults[i][1]);
      if (r !== 0) { rtDraw(); throw refuse('failed link ' + q.faults[i].join(':'), r); }
    }
    var gen = S.m.rt_build(q.method);
    w = io();
    var v = { proven: w[0], failure: w[1], src: w[2], dst: w[3], len: w[4], trunc: w[5], pairs: w[6], delivered: w[7], unroutable: w[8],
              datelines: [w[9], w[10], w[11]], gen: gen };
    rt.witness = [];
    for (i = 0; i < v.len; i++) rt.witness.push(Array.from(w.slice(12 + 4 * i, 16 + 4 * i)));
    rt.failure = v.failure;
    var fs = cstr(S.m.rt_failure_string(v.failure));
    $('rt-verdict').innerHTML = '<div id="rt-verdict-data" data-proven="' + v.proven + '" data-failure="' + v.failure + '" data-pairs="' + v.pairs +
      '" data-delivered="' + v.delivered + '" data-src="' + v.src + '" data-dst="' + v.dst + '" class="' + (v.proven ? 'proven' : 'refuted') + '">' +
      (v.proven ? '<b>Proven</b>: of ' + v.pairs + ' ordered pairs, ' + v.delivered + ' are delivered and ' + v.unroutable +
                  ' declared unroutable; the channel dependency graph has no cycle.'
                : '<b>Refuted</b>: ' + esc(fs) + (v.failure === 7 ? ' (the cycle of channels is drawn in red)' :
                  ', routing ' + v.src + ' &rarr; ' + v.dst + ' (the path is drawn in red)') + '.') +
      ' Datelines x ' + v.datelines[0] + ', y ' + v.datelines[1] + ', z ' + v.datelines[2] + '.' +
      (gen !== 0 ? ' The generator returned code ' + gen + ': it does not prove its tables either.' : '') + '</div>';
    $('rt-witness').innerHTML = v.len ? '<table class="data"><tr><th>router</th><th>in</th><th>out</th><th>VC</th></tr>' +
      rt.witness.map(function (h) { return '<tr><td>' + h[0] + '</td><td>' + (v.failure === 7 ? '' : RT_PORT[h[1]] || h[1]) + '</td><td>' +
      (RT_PORT[h[2]] || 'none') + '</td><td>' + h[3] + '</td></tr>'; }).join('') + '</table>' +
      (v.trunc ? '<p>(the last steps only)</p>' : '') : '<p>none</p>';
    var N = q.dims[0] * q.dims[1] * q.dims[2];
    if (q.src >= N || q.dst >= N) { rtDraw(); throw new Error('source and destination are routers 0..' + (N - 1)); }
    var hops = S.m.rt_route(q.src, q.dst);
    w = io();
    var outcome = w[0];
    rt.route = [];
    for (i = 0; i < hops; i++) rt.route.push(Array.from(w.slice(1 + 4 * i, 5 + 4 * i)));
    $('rt-route').innerHTML = '<div id="rt-route-data" data-outcome="' + outcome + '" data-hops="' +
      rt.route.map(function (h) { return h.join(':'); }).join(';') + '"><p>' +
      (outcome === 1 ? 'delivered in ' + (hops - 1) + ' hops' : outcome === 2 ? 'loops' : 'no route (the tables end here)') + '</p>' +
      '<table class="data"><tr><th>router</th><th>in</th><th>out</th><th>VC out</th></tr>' +
      rt.route.map(function (h) { return '<tr><td>' + h[0] + '</td><td>' + (RT_PORT[h[1]] || h[1]) + '</td><td>' + (RT_PORT[h[2]] || 'none') +
      '</td><td>' + h[3] + '</td></tr>'; }).join('') + '</table></div>';
    rt.src = q.src; rt.dst = q.dst;
    rtDraw();
  }
  function rtCoord(u) { var Y = rt.dims[1], Z = rt.dims[2]; return [Math.floor(u / (Y * Z)), Math.floor(u / Z) % Y, u % Z]; }
  function rtId(c) { return c[0] * rt.dims[1] * rt.dims[2] + c[1] * rt.dims[2] + c[2]; }
  function rtNeighbour(u, port) {
    var c = rtCoord(u), d = port >> 1;
    c[d] = (c[d] + (port & 1 ? rt.dims[d] - 1 : 1)) % rt.dims[d];
    return rtId(c);
  }
  function rtXY(u) {
    var c = rtCoord(u), X = rt.dims[0];
    return [40 + c[2] * (X * 60 + 70) + c[0] * 60, 40 + c[1] * 60];
  }
  /* The link (u, port) as an even port from one end: its key. */
  function rtKey(u, port) { return (port & 1) ? rtNeighbour(u, port) + ':' + (port ^ 1) : u + ':' + port; }
  /* Draw a link as a line between its ends, or, where it wraps around (or
   * runs in z, between the drawn layers), as two stubs leaving its ends. */
  function rtLinkPaths(u, p) {
    var v = rtNeighbour(u, p), a = rtXY(u), b = rtXY(v), d = p >> 1;
    if (d < 2 && rtCoord(u)[d] < rt.dims[d] - 1)
      return [['M' + a[0] + ',' + a[1] + ' L' + b[0] + ',' + b[1], (a[0] + b[0]) / 2 - 8, (a[1] + b[1]) / 2 - 5]];
    var dx = d === 0 ? 24 : d === 2 ? 16 : 0, dy = d === 1 ? 24 : d === 2 ? 16 : 0;
    return [['M' + a[0] + ',' + a[1] + ' l' + dx + ',' + dy, a[0] + dx + 2, a[1] + dy + 10],
            ['M' + b[0] + ',' + b[1] + ' l' + (-dx) + ',' + (-dy), -1, -1]];
  }
  function rtDraw() {
    if (!rt.dims) return;
    var N = rt.dims[0] * rt.dims[1] * rt.dims[2], X = rt.dims[0], Y = rt.dims[1], Z = rt.dims[2];
    var W = 60 + Z * (X * 60 + 70), H = 80 + Y * 60, u, p, s = '';
    var failed = {}, onRoute = {}, onCycle = {};
    rt.faults.forEach(function (f) { if (f[1] < 6) failed[rtKey(f[0], f[1])] = 1; });
    rt.route.forEach(function (h) { if (h[2] < 6) onRoute[rtKey(h[0], h[2])] = 'VC' + h[3]; });
    rt.witness.forEach(function (h) { if (h[2] < 6) onCycle[rtKey(h[0], h[2])] = 1; });
    for (u = 0; u < N; u++) for (p = 0; p < 6; p += 2) {
      var key = u + ':' + p, v = rtNeighbour(u, p);
      var cls = 'link' + (p === 4 ? ' z' : '') + (failed[key] ? ' failed' : '') + (onRoute[key] ? ' route' : '') + (onCycle[key] ? ' cycle' : '');
      rtLinkPaths(u, p).forEach(function (g) {
        s += '<path class="' + cls + '" d="' + g[0] + '" data-node="' + u + '" data-port="' + p + '"><title>link ' + u + ' ' + RT_PORT[p] + ' to ' + v + '</title></path>';
        if (onRoute[key] && g[1] >= 0) s += '<text class="vc" x="' + g[1] + '" y="' + g[2] + '">' + onRoute[key] + '</text>';
      });
    }
    for (u = 0; u < N; u++) {
      var q = rtXY(u);
      var ncls = 'node' + (u === rt.src ? ' src' : '') + (u === rt.dst ? ' dst' : '');
      s += '<g class="' + ncls + '" data-node="' + u + '"><circle cx="' + q[0] + '" cy="' + q[1] + '" r="13"></circle><text x="' + q[0] + '" y="' + (q[1] + 4) + '">' + u + '</text></g>';
    }
    for (var z = 0; z < Z; z++) s += '<text class="layer" x="' + (20 + z * (X * 60 + 70)) + '" y="16">z = ' + z + ' (x right, y down)</text>';
    $('rt-svg').innerHTML = '<svg width="' + W + '" height="' + H + '" viewBox="0 0 ' + W + ' ' + H + '">' + s + '</svg>' +
      '<p class="legend">A link that wraps around, or runs in z to the next layer, is drawn as a stub at each end ' +
      '(x: right / left, y: down / up, z: diagonal).  Dashed red: failed; blue: the route, with the VC it leaves on; red: the verifier\'s witness.</p>';
  }
  function rtClick(ev) {
    var link = ev.target.closest('path.link'), node = ev.target.closest('g.node');
    if (link) {
      var key = link.dataset.node + ':' + link.dataset.port, list = String($('rt-faults').value).trim();
      var items = list ? list.split(',').map(function (t) { return t.trim(); }) : [];
      var at = items.indexOf(key);
      if (at >= 0) items.splice(at, 1); else items.push(key);
      $('rt-faults').value = items.join(',');
    } else if (node) {
      $(rt.pick === 'src' ? 'rt-src' : 'rt-dst').value = node.dataset.node;
      rt.pick = rt.pick === 'src' ? 'dst' : 'src';
    } else return;
    guarded('rt', rtApply)();
  }

  /* --------------------------------------------------------------- page */
  function show(view) {
    ['merging', 'alloc', 'route'].forEach(function (v) {
      $('view-' + v).hidden = v !== view;
      document.querySelector('#tabs button[data-view="' + v + '"]').className = v === view ? 'active' : '';
    });
    document.body.dataset.view = view;
  }
  /* Parameters from the URL, into the forms, then applied as if typed. */
  function fromUrl() {
    var q = new URLSearchParams(location.search), view = q.get('view') || 'merging';
    var fields = { topo: 'mg-topo', policy: 'mg-policy', period: 'mg-period', bias: 'mg-bias', pbias: 'mg-pbias', steps: 'mg-steps',
                   preset: 'al-preset', n: 'al-n', m: 'al-m', network: 'al-net', density: 'al-density', seed: 'al-seed',
                   dims: 'rt-dims', method: 'rt-method', src: 'rt-src', dst: 'rt-dst', faults: 'rt-faults' };
    var urlErrors = {};
    if (['merging', 'alloc', 'route'].indexOf(view) < 0) { urlErrors.mg = 'view must be merging, alloc or route (got "' + view + '")'; view = 'merging'; }
    Object.keys(fields).forEach(function (k) {
      if (!q.has(k)) return;
      var el = $(fields[k]), v = q.get(k);
      if (el.tagName === 'SELECT' && !Array.prototype.some.call(el.options, function (o) { return o.value === v; })) {
        urlErrors[fields[k].slice(0, 2)] = k + ' must be one of ' + Array.prototype.map.call(el.options, function (o) { return o.value; }).join(', ') + ' (got "' + v + '")';
      } else el.value = v;
    });
    if (q.has('rotary')) $('al-rotary').checked = q.get('rotary') === '1';
    show(view);
    guarded('mg', function () {
      mgSetup();
      if (q.has('warmup')) { mgRun(whole('warmup', q.get('warmup'), 0, 100000)); S.m.mg_clear(); }
      if (q.has('steps') && view === 'merging') mgRun(whole('steps', q.get('steps'), 0, 100000));
    })();
    guarded('al', function () {
      alSetup();
      alDrawRequests();
      if (q.get('allocate') === '0') return;
      alAllocate();
      for (var t = q.has('stage') ? whole('stage', q.get('stage'), 0, 1000) : 0; t > 0; t--) alStep(1);
    })();
    guarded('rt', rtApply)();
    /* a parameter that names no choice: the view runs with the default, and says so */
    Object.keys(urlErrors).forEach(function (v) { say(v, urlErrors[v]); });
  }
  function wire() {
    Array.prototype.forEach.call(document.querySelectorAll('#tabs button'), function (b) {
      b.addEventListener('click', function () { show(b.dataset.view); });
    });
    $('mg-reset').addEventListener('click', guarded('mg', mgSetup));
    ['mg-topo', 'mg-policy'].forEach(function (id) { $(id).addEventListener('change', guarded('mg', mgSetup)); });
    $('mg-step').addEventListener('click', guarded('mg', function () { mgRun(1); }));
    $('mg-run').addEventListener('click', guarded('mg', function () { mgRun(whole('cycles to run', $('mg-steps').value, 0, 100000)); }));
    $('mg-play').addEventListener('click', guarded('mg', mgPlay));
    $('mg-clear').addEventListener('click', guarded('mg', function () { if (mg.ok) { S.m.mg_clear(); mgRun(0); } }));
    $('al-reset').addEventListener('click', guarded('al', alSetup));
    ['al-preset', 'al-rotary'].forEach(function (id) { $(id).addEventListener('change', guarded('al', alSetup)); });
    $('al-draw').addEventListener('click', guarded('al', alDrawRequests));
    $('al-step').addEventListener('click', guarded('al', alAllocate));
    $('al-prev').addEventListener('click', guarded('al', function () { alStep(-1); }));
    $('al-next').addEventListener('click', guarded('al', function () { alStep(1); }));
    $('al-all').addEventListener('click', guarded('al', function () { alStep(0); }));
    $('al-auto').addEventListener('click', guarded('al', function () { alDrawRequests(); alAllocate(); }));
    $('al-requests').addEventListener('click', guarded('al', alClick));
    $('rt-apply').addEventListener('click', guarded('rt', rtApply));
    $('rt-method').addEventListener('change', guarded('rt', rtApply));
    $('rt-svg').addEventListener('click', rtClick);
    Array.prototype.forEach.call(document.querySelectorAll('form.controls'), function (f) {
      f.addEventListener('submit', function (ev) { ev.preventDefault(); });
    });
  }
  function start() {
    var status = $('status');
    try {
      if (typeof WebAssembly !== 'object' || typeof SEASTAR_WASM === 'undefined') throw new Error('this browser has no WebAssembly, or seastar-wasm.js did not load');
      var bin = atob(SEASTAR_WASM), bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      WebAssembly.instantiate(bytes, {}).then(function (r) {
        S.m = r.instance.exports;
        var v = S.m.ws_version();
        wire();
        fromUrl();
        var now = performance.now(), ms = now - S.loadStart;
        status.textContent = '';
        status.className = 'status';
        $('footer').innerHTML = 'seastar_arb.h ' + Math.floor(v / 10000) + '.' + Math.floor(v / 100) % 100 + '.' + v % 100 +
          ' as WebAssembly (' + bytes.length + ' bytes); ready ' + now.toFixed(0) + ' ms after the page was requested (' +
          ms.toFixed(0) + ' ms of it to start the module and draw the views).';
        document.body.dataset.wasmBytes = bytes.length;
        document.body.dataset.loadMs = now.toFixed(1);
        document.body.dataset.startMs = ms.toFixed(1);
        document.body.dataset.ready = '1';
      }).catch(function (e) {
        status.textContent = 'The WebAssembly module failed: ' + e.message;
        status.className = 'status error';
      });
    } catch (e) {
      status.textContent = e.message;
      status.className = 'status error';
    }
  }
  start();
})();
