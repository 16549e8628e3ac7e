// signd's control page: every change is a request of the control protocol sent to
// POST /api/cmd; the board comes live over the /api/live WebSocket.
'use strict';

const $ = (id) => document.getElementById(id);

// The newest frame the page has received: {number, width, height, pixels (RGB888)}.
// Also what a test compares with the board's shared-memory framebuffer.
window.signdLive = null;

let status = null;
let drawPending = false;
let received = [];
let socket = null;

async function api(path, body) {
  const init = { credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.method = 'POST';
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let json = null;
  try { json = await response.json(); } catch (e) { json = null; }
  return { status: response.status, json };
}

function say(text, bad) {
  const message = $('message');
  message.textContent = text;
  message.classList.toggle('bad', !!bad);
}

// Sends one request; shows its error, if any. Returns the response object or null.
async function cmd(request) {
  let r;
  try {
    r = await api('/api/cmd', request);
  } catch (e) {
    say('signd is not reachable', true);
    return null;
  }
  if (r.status === 401) { showLogin(); return null; }
  if (!r.json || r.json.ok === false) {
    say(r.json && r.json.error ? r.json.error.message : 'request failed (' + r.status + ')', true);
    return r.json;
  }
  say('');
  refresh();
  return r.json;
}

function showLogin() {
  $('app').hidden = true;
  $('login').hidden = false;
  $('token').focus();
  if (socket) { socket.close(); socket = null; }
}

function showApp() {
  $('login').hidden = true;
  $('app').hidden = false;
  if (!socket) connectLive();
}

async function refresh() {
  let r;
  try {
    r = await api('/api/status');
  } catch (e) {
    setLink('offline', 'lost');
    return;
  }
  if (r.status === 401) { showLogin(); return; }
  if (r.status !== 200 || !r.json) return;
  status = r.json;
  showApp();
  render(status);
}

function render(s) {
  $('size').textContent = s.width + ' × ' + s.height + ' at ' + s.fps + ' fps';
  $('version').textContent = s.version ? 'signd ' + s.version + (s.commit ? ' (commit ' + s.commit + ')' : '') : '';
  const text = $('text');
  if (document.activeElement !== text && text.dataset.sent !== s.text) {
    text.value = s.text || '';
    text.dataset.sent = s.text || '';
  }
  const brightness = $('brightness');
  const percent = Math.round((s.brightness || 0) * 100);
  if (document.activeElement !== brightness) brightness.value = percent;
  $('brightness-value').textContent = brightness.value + ' %';
  $('display').checked = s.display !== 'off';
  $('board-off').hidden = s.display !== 'off';

  const names = s.playlists || [];
  $('playlist-controls').hidden = names.length === 0;
  $('no-playlists').hidden = names.length !== 0;
  const select = $('playlist');
  const playing = s.playlist ? s.playlist.name : '';
  if (select.options.length !== names.length || names.some((n, i) => select.options[i].value !== n)) {
    select.replaceChildren(...names.map((n) => new Option(n, n)));
  }
  if (document.activeElement !== select) select.value = playing;
  $('playlist-item').textContent = s.playlist
    ? 'Now: ' + s.playlist.item + (s.playlist.paused ? ' (paused)' : '')
    : 'No playlist playing';

  const list = $('outputs');
  list.replaceChildren(...(s.outputs || []).map((o) => {
    const item = document.createElement('li');
    const name = document.createElement('span');
    name.textContent = o.name + ' (' + o.type + ')';
    const state = document.createElement('span');
    state.className = 'state ' + o.state;
    state.textContent = o.state;
    item.append(name, state);
    const detail = [o.device, o.last_error].filter(Boolean).join(' · ');
    if (detail) {
      const d = document.createElement('span');
      d.className = 'detail';
      d.textContent = detail;
      item.append(d);
    }
    return item;
  }));
  if (!list.children.length) {
    const none = document.createElement('li');
    none.textContent = 'No outputs';
    list.append(none);
  }
}

function setLink(text, kind) {
  const link = $('link');
  link.textContent = text;
  link.className = 'pill ' + (kind || '');
}

function connectLive() {
  const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  const ws = new WebSocket(scheme + location.host + '/api/live');
  ws.binaryType = 'arraybuffer';
  socket = ws;
  ws.onopen = () => setLink('live', 'live');
  ws.onmessage = (event) => receive(event.data);
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    setLink('reconnecting', 'lost');
    setTimeout(() => { if (!socket && $('login').hidden) connectLive(); }, 1000);
  };
}

function receive(data) {
  if (!(data instanceof ArrayBuffer) || data.byteLength < 16) return;
  const view = new DataView(data);
  if (view.getUint32(0, false) !== 0x53474631) return;  // "SGF1"
  const width = view.getUint16(4, true);
  const height = view.getUint16(6, true);
  const number = Number(view.getBigUint64(8, true));
  if (data.byteLength < 16 + width * height * 3) return;
  window.signdLive = { number, width, height, pixels: new Uint8Array(data, 16, width * height * 3) };
  const now = performance.now();
  received.push(now);
  while (received.length && received[0] < now - 2000) received.shift();
  $('rate').textContent = (received.length / 2).toFixed(0) + ' frames/s live';
  if (!drawPending) {
    drawPending = true;
    requestAnimationFrame(draw);
  }
}

// Draws the newest frame as round LEDs on a dark ground, as large as the screen allows.
function draw() {
  drawPending = false;
  const frame = window.signdLive;
  if (!frame) return;
  const canvas = $('board');
  const ratio = window.devicePixelRatio || 1;
  const cssWidth = canvas.clientWidth || 320;
  const pitch = Math.max(2, Math.floor((cssWidth * ratio) / frame.width));
  const width = pitch * frame.width;
  const height = pitch * frame.height;
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, width, height);
  const radius = pitch * 0.42;
  // Too small a pitch for round dots (a wide board on a phone): whole cells, which keep
  // the board's brightness.
  const round = pitch >= 4;
  const p = frame.pixels;
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const i = (y * frame.width + x) * 3;
      const r = p[i], g = p[i + 1], b = p[i + 2];
      // An unlit LED still shows as a faint dot, as on a real board.
      ctx.fillStyle = r + g + b < 24 ? '#16191d' : 'rgb(' + r + ',' + g + ',' + b + ')';
      if (round) {
        ctx.beginPath();
        ctx.arc(x * pitch + pitch / 2, y * pitch + pitch / 2, radius, 0, 2 * Math.PI);
        ctx.fill();
      } else {
        ctx.fillRect(x * pitch, y * pitch, pitch, pitch);
      }
    }
  }
}

function bind() {
  $('login-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = $('login-error');
    error.textContent = '';
    let r;
    try {
      r = await api('/api/login', { token: $('token').value });
    } catch (e) {
      error.textContent = 'signd is not reachable';
      return;
    }
    if (r.status === 200) {
      $('token').value = '';
      refresh();
    } else {
      error.textContent = r.json && r.json.error ? r.json.error.message : 'refused (' + r.status + ')';
    }
  });
  $('text-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = $('text').value;
    const r = await cmd({ cmd: 'set-text', text });
    if (r && r.ok) { $('text').dataset.sent = text; say('Sent'); }
  });
  $('notify-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const r = await cmd({ cmd: 'notify', text: $('notify').value });
    if (r && r.ok) { $('notify').value = ''; say('Notification queued'); }
  });
  $('playlist').addEventListener('change', () => cmd({ cmd: 'playlist', action: 'select', name: $('playlist').value }));
  $('next').addEventListener('click', () => cmd({ cmd: 'playlist', action: 'next' }));
  const brightness = $('brightness');
  brightness.addEventListener('input', () => { $('brightness-value').textContent = brightness.value + ' %'; });
  brightness.addEventListener('change', () =>
    cmd({ cmd: 'set-brightness', value: Number(brightness.value) / 100, duration: 0.3 }));
  $('display').addEventListener('change', () => cmd({ cmd: 'display', state: $('display').checked ? 'on' : 'off' }));
  window.addEventListener('resize', () => { if (!drawPending) { drawPending = true; requestAnimationFrame(draw); } });
}

bind();
refresh();
setInterval(() => { if ($('login').hidden) refresh(); }, 2000);
