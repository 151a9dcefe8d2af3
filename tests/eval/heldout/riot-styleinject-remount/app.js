/* Support console: a page built from riot custom tags. The app's design
 * system registers its widget tags (seeded, the same on every load), each
 * with its own stylesheet, about 3000 CSS rules in all. A queue button
 * clears the board and places one widget per open ticket, mounting each
 * widget on its own placeholder with riot.mount, the way the console adds
 * widgets as tickets arrive.
 * A real regression for zamcap's accuracy experiment (NOTE.md): since
 * riot 3.0.0, every riot.mount call rebuilds the text of all registered
 * tags' CSS and writes it into riot's <style> node again, even when no
 * new tag was registered (riot 2.6 injected only CSS not yet injected;
 * riot 3.0.3 restored a "needs inject" flag). */
'use strict';

var WIDGET_KINDS = ['ticket-card', 'user-badge', 'sla-meter', 'priority-chip', 'order-line',
  'refund-box', 'carrier-tag', 'parcel-track', 'note-strip', 'macro-list', 'tag-cloud', 'agent-pill',
  'csat-star', 'invoice-row', 'address-card', 'return-label', 'stock-hint', 'promo-code',
  'chat-bubble', 'call-log', 'escalation', 'due-clock', 'channel-icon', 'merge-hint'];
var RULES_PER_KIND = 125;
var TICKETS_PER_QUEUE = 150;
var PROPS = ['color', 'background-color', 'border-color', 'outline-color', 'text-decoration-color'];
var SUBJECTS = ['Package', 'Invoice', 'Refund', 'Address', 'Coupon', 'Order', 'Parcel', 'Account'];
var PROBLEMS = ['missing', 'late', 'damaged', 'wrong', 'duplicated', 'not received', 'cancelled'];

function seededRandom(seed) {
  var s = seed >>> 0;
  return function nextRandom() {
    s = (s + 0x6D2B79F5) >>> 0;
    var t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

function hexColor(rand) {
  var n = Math.floor(rand() * 0xffffff);
  return '#' + ('00000' + n.toString(16)).slice(-6);
}

function widgetCss(rand, kind) {
  var rules = [];
  for (var i = 0; i < RULES_PER_KIND; i++) {
    rules.push(kind + ' .' + kind + '-part' + i + ' { ' + pick(rand, PROPS) + ': ' + hexColor(rand) +
      '; padding: ' + Math.floor(rand() * 9) + 'px ' + Math.floor(rand() * 9) + 'px; }');
  }
  rules.push(kind + ' .w-head { font-weight: bold; }');
  return rules.join('\n');
}

function widgetHtml(kind) {
  return '<div class="w-head ' + kind + '-part0">{ opts.ticket.id }: { opts.ticket.subject }</div>' +
    '<div class="' + kind + '-part1">{ opts.ticket.customer } ({ opts.ticket.age } h)</div>';
}

function registerWidgets() {
  var rand = seededRandom(2152);
  WIDGET_KINDS.forEach(function registerWidget(kind) {
    riot.tag(kind, widgetHtml(kind), widgetCss(rand, kind), '', function widgetInit() {});
  });
}

function makeTickets(queue) {
  var seed = 0;
  for (var i = 0; i < queue.length; i++) seed = (seed * 31 + queue.charCodeAt(i)) >>> 0;
  var rand = seededRandom(seed);
  var tickets = [];
  for (var t = 0; t < TICKETS_PER_QUEUE; t++) {
    tickets.push({
      id: queue.charAt(0) + (1000 + t),
      kind: pick(rand, WIDGET_KINDS),
      subject: pick(rand, SUBJECTS) + ' ' + pick(rand, PROBLEMS),
      customer: 'customer' + Math.floor(rand() * 5000),
      age: Math.floor(rand() * 96)
    });
  }
  return tickets;
}

var mounted = [];
var opened = 0;

function clearBoard(board) {
  mounted.forEach(function unmountWidget(tag) { tag.unmount(); });
  mounted = [];
  board.textContent = '';
}

function placeWidget(board, ticket) {
  var el = document.createElement(ticket.kind);
  board.appendChild(el);
  var tags = riot.mount(el, ticket.kind, {ticket: ticket});
  for (var i = 0; i < tags.length; i++) mounted.push(tags[i]);
}

function openQueue(queue) {
  var board = document.getElementById('board');
  clearBoard(board);
  var tickets = makeTickets(queue);
  tickets.forEach(function placeTicket(ticket) { placeWidget(board, ticket); });
  opened++;
  document.getElementById('status').textContent = queue + ': ' + tickets.length + ' open tickets';
  document.body.setAttribute('data-opened', String(opened));
}

function onQueueClick(event) {
  var button = event.target.closest('button[data-queue]');
  if (button) openQueue(button.getAttribute('data-queue'));
}

function start() {
  registerWidgets();
  document.querySelector('p').addEventListener('click', onQueueClick);
  document.body.setAttribute('data-ready', '1');
}

start();
