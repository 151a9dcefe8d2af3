/* Arena seat map: a PixiJS stage with a large static layer of seat dots
 * (interactiveChildren = false, nothing on it listens to pointer events) and
 * a few interactive section hotspots that count hovers. Each Replay button
 * replays a recorded visitor's cursor trail (seeded, the same on every load)
 * by dispatching pointermove events to the canvas, then renders one frame.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const SEAT_ROWS = 120;     /* rows of seats in the static layer */
const SEAT_COLS = 190;     /* seats per row */
const TRAIL = 30;          /* pointermove events per replayed trail */
const WIDTH = 800, HEIGHT = 480;
const TOURS = ['lower', 'upper', 'floor'];

const state = {app: null, sections: [], shown: 0, hovers: 0, moves: 0};

function seededRandom(seed) {
  let s = seed >>> 0;
  return function nextRandom() {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function buildSeats(stage) {
  const seats = new PIXI.Container();
  seats.interactiveChildren = false;   /* a static picture: no hit tests */
  const rand = seededRandom(4242);
  const colours = [0x2e7d32, 0x1565c0, 0xc62828, 0x9e9e9e];
  for (let r = 0; r < SEAT_ROWS; r++) {
    const row = new PIXI.Container();
    row.y = 8 + r * 3.9;
    for (let c = 0; c < SEAT_COLS; c++) {
      const seat = new PIXI.Sprite(PIXI.Texture.WHITE);
      seat.width = 3; seat.height = 3;
      seat.x = 8 + c * 4.1;
      seat.tint = colours[Math.floor(rand() * colours.length)];
      row.addChild(seat);
    }
    seats.addChild(row);
  }
  stage.addChild(seats);
}

function buildSections(stage) {
  for (let i = 0; i < 6; i++) {
    const g = new PIXI.Graphics();
    g.beginFill(0xffc107, 0.25).drawRect(0, 0, 120, 90).endFill();
    g.x = 20 + (i % 3) * 260; g.y = 40 + Math.floor(i / 3) * 220;
    g.interactive = true;
    g.sectionHovers = 0;
    g.on('pointerover', () => { g.sectionHovers++; state.hovers++; });
    g.on('pointermove', () => { state.moves++; });
    state.sections.push(g);
    stage.addChild(g);
  }
}

function replayTrail(index) {
  const canvas = state.app.view;
  const rect = canvas.getBoundingClientRect();
  const rand = seededRandom(900 + index * 31);
  let x = rand() * WIDTH, y = rand() * HEIGHT;
  for (let i = 0; i < TRAIL; i++) {
    x = Math.min(WIDTH - 1, Math.max(0, x + (rand() - 0.5) * 90));
    y = Math.min(HEIGHT - 1, Math.max(0, y + (rand() - 0.5) * 70));
    canvas.dispatchEvent(new PointerEvent('pointermove', {
      clientX: rect.left + x, clientY: rect.top + y, pointerId: 1,
      pointerType: 'mouse', isPrimary: true, bubbles: true, cancelable: true
    }));
  }
}

function showTour(index) {
  replayTrail(index);
  state.app.render();
  state.shown++;
  const per = state.sections.map((s) => s.sectionHovers).join('/');
  document.getElementById('status').textContent =
    `Tour ${TOURS[index]}: ${state.hovers} section entries (${per}), ${state.moves} moves over sections`;
  document.body.dataset.shown = String(state.shown);
}

function init() {
  const app = new PIXI.Application({width: WIDTH, height: HEIGHT, autoStart: false,
    antialias: false, backgroundColor: 0xfafafa, resolution: 1});
  document.getElementById('view').appendChild(app.view);
  state.app = app;
  buildSeats(app.stage);
  buildSections(app.stage);
  app.render();
  TOURS.forEach((name, i) => {
    document.getElementById('tour' + i).addEventListener('click', () => showTour(i));
  });
  document.body.dataset.ready = '1';
}

init();
