/* Route map: each Load button starts a fresh AngularJS injector with the
 * ui.router module and registers one site's state tree (seeded, the same on
 * every load): a few sections, each with many child pages whose URLs carry a
 * path parameter. It then asks the router for a sample of links and lists
 * them. Registering a state with a URL adds a URL rule to the router.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

var SITES = ['shop', 'admin', 'docs'];
var SECTIONS = 10;     /* parent states per site */
var PAGES = 40;        /* child states per section */
var WORDS = ['list', 'detail', 'edit', 'view', 'item', 'report', 'order',
  'user', 'team', 'page', 'tag', 'note', 'file', 'task', 'plan', 'stat'];

var state = {shown: 0};

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

function makeSite(index) {
  var rand = seededRandom(7100 + index * 31);
  var defs = [];
  for (var s = 0; s < SECTIONS; s++) {
    var sec = SITES[index] + s;
    defs.push({name: sec, url: '/' + sec, template: '<div></div>'});
    for (var p = 0; p < PAGES; p++) {
      var word = WORDS[Math.floor(rand() * WORDS.length)];
      defs.push({name: sec + '.' + word + p,
        url: '/' + word + p + '/:id/view/:tab', template: '<div></div>'});
    }
  }
  return defs;
}

function loadSite(index) {
  var defs = makeSite(index);
  var rootEl = angular.element(document.createElement('div'));
  var injector = angular.injector(['ng', 'ui.router',
    ['$provide', function ($provide) { $provide.value('$rootElement', rootEl); }],
    ['$stateProvider', function ($stateProvider) {
      for (var i = 0; i < defs.length; i++) $stateProvider.state(defs[i]);
    }]], false);
  var $state = injector.get('$state');
  var lines = ['states: ' + $state.get().length];
  var rand = seededRandom(9000 + index);
  for (var k = 0; k < 12; k++) {
    var d = defs[1 + Math.floor(rand() * (defs.length - 1))];
    lines.push(d.name + ' -> ' + $state.href(d.name, {id: k + 1, tab: 'a'}));
  }
  injector.get('$rootScope').$destroy();
  document.getElementById('out').textContent = lines.join('\n');
  state.shown++;
  document.getElementById('status').textContent = SITES[index] + ' loaded';
  document.body.dataset.shown = String(state.shown);
}

SITES.forEach(function (name, i) {
  document.getElementById('load' + i).addEventListener('click', function () { loadSite(i); });
});
document.body.dataset.ready = '1';
