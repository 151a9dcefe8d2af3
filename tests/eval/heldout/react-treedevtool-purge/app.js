/* Ticket triage board: a React 15 list of seeded tickets (the same on every
 * load), each ticket a small component with its own state. Each Triage
 * button walks a seeded pick of tickets of one team and flips their "hot"
 * flag one ticket at a time, as a keyboard-driven triage would: every
 * setState runs outside a React event, so each one is its own update flush.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

var TEAMS = ['backend', 'frontend', 'billing'];
var TICKETS = 2400;   /* tickets on the board */
var PICKS = 130;      /* tickets triaged per click */

var WORDS = ['login', 'timeout', 'invoice', 'crash', 'slow', 'export', 'upload',
  'refund', 'cache', 'search', 'report', 'sync', 'mobile', 'email', 'layout', 'api'];

var state = {rows: [], shown: 0, hot: 0};

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

function makeTickets() {
  var rand = seededRandom(9107);
  var list = [];
  for (var i = 0; i < TICKETS; i++) {
    list.push({
      id: 'T-' + (1000 + i),
      team: TEAMS[Math.floor(rand() * TEAMS.length)],
      title: WORDS[Math.floor(rand() * WORDS.length)] + ' ' + WORDS[Math.floor(rand() * WORDS.length)],
      votes: Math.floor(rand() * 40)
    });
  }
  return list;
}

var h = React.createElement;

var Ticket = React.createClass({
  displayName: 'Ticket',
  getInitialState: function () { return {hot: false, touched: 0}; },
  componentDidMount: function () { state.rows[this.props.index] = this; },
  toggle: function () {
    this.setState({hot: !this.state.hot, touched: this.state.touched + 1});
  },
  render: function () {
    var t = this.props.ticket;
    return h('li', {className: this.state.hot ? 'hot' : ''},
      h('span', null, t.id),
      h('span', null, t.title),
      h('b', null, t.votes + this.state.touched));
  }
});

var Board = React.createClass({
  displayName: 'Board',
  render: function () {
    var items = this.props.tickets.map(function (t, i) {
      return h(Ticket, {key: t.id, ticket: t, index: i});
    });
    return h('ul', null, items);
  }
});

function triage(teamIndex) {
  var t0 = performance.now();
  var team = TEAMS[teamIndex];
  var rand = seededRandom(77 + teamIndex * 31);
  var done = 0;
  var guard = 0;
  while (done < PICKS && guard < TICKETS * 4) {
    guard++;
    var i = Math.floor(rand() * TICKETS);
    var row = state.rows[i];
    if (row.props.ticket.team !== team) continue;
    row.toggle();
    done++;
  }
  var hot = 0;
  for (var k = 0; k < state.rows.length; k++) if (state.rows[k].state.hot) hot++;
  state.shown++;
  document.getElementById('status').textContent =
    'Triage ' + team + ': ' + done + ' tickets flipped, ' + hot + ' hot on the board, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  ReactDOM.render(h(Board, {tickets: makeTickets()}), document.getElementById('board'));
  for (var i = 0; i < TEAMS.length; i++) {
    (function (n) {
      document.getElementById('triage' + n).addEventListener('click', function onTriage() { triage(n); });
    })(i);
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
