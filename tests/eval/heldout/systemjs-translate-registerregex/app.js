// Plugin loader: each click hands SystemJS a set of generated CommonJS plugin
// modules (System.define, no network), imports them and runs them.
// Every plugin starts with a header of one-line block comments (licence,
// build stamp, owners...), as generated bundles often do.
'use strict';

var HEADER_LINES = 12;
var BODY_LINES = 40;
var PLUGINS_PER_SET = 40;
var SETS = ['charts', 'export', 'filter'];

var seed = 20150806;
function nextRandom() {
  // deterministic LCG
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

function makeHeader(setName, index) {
  var lines = [];
  for (var i = 0; i < HEADER_LINES; i++) {
    lines.push('/* ' + setName + '-plugin-' + index + ' header ' + i + ': generated file, do not edit */');
  }
  return lines.join('\n') + '\n';
}

function makeBody(index) {
  var lines = ['var weights = [];'];
  for (var j = 0; j < BODY_LINES; j++) {
    var w = Math.floor(nextRandom() * 1000);
    lines.push('weights.push(' + w + '); /* weight ' + j + ' */');
  }
  lines.push('module.exports = function run(x) {');
  lines.push('  for (var i = 0; i < weights.length; i++) { x = (x * 31 + weights[i]) % 1000003; }');
  lines.push('  return x + ' + index + ';');
  lines.push('};');
  return lines.join('\n') + '\n';
}

function makePluginSource(setName, index) {
  return makeHeader(setName, index) + makeBody(index);
}

function pluginName(setName, index) {
  return System.normalizeSync('plugins/' + setName + '/p' + index + '.js');
}

function definePlugins(setName) {
  var defs = [];
  for (var i = 0; i < PLUGINS_PER_SET; i++) {
    defs.push(System.define(pluginName(setName, i), makePluginSource(setName, i)));
  }
  return Promise.all(defs);
}

function importPlugins(setName) {
  var imports = [];
  for (var i = 0; i < PLUGINS_PER_SET; i++) {
    imports.push(System.import(pluginName(setName, i)));
  }
  return Promise.all(imports);
}

function runPlugins(plugins) {
  var total = 0;
  for (var i = 0; i < plugins.length; i++) {
    var fn = plugins[i]['default'] || plugins[i];
    total = (total + fn(i + 1)) % 1000003;
  }
  return total;
}

function showResult(setIndex, setName, count, total) {
  document.getElementById('out').textContent +=
    setName + ': ' + count + ' plugins, checksum ' + total + '\n';
  document.getElementById('status').textContent = 'loaded ' + setName;
  document.body.dataset.shown = String(setIndex + 1);
}

function loadSet(setIndex) {
  var setName = SETS[setIndex];
  return definePlugins(setName)
    .then(function () { return importPlugins(setName); })
    .then(function (plugins) {
      showResult(setIndex, setName, plugins.length, runPlugins(plugins));
    }, function (err) {
      document.getElementById('out').textContent += 'error: ' + err + '\n';
      document.body.dataset.shown = String(setIndex + 1);
    });
}

function init() {
  SETS.forEach(function (name, i) {
    document.getElementById('load' + i).addEventListener('click', function onLoadClick() {
      loadSet(i);
    });
  });
  document.body.dataset.ready = '1';
}

init();
