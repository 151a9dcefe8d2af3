/* A minimal AMD loader for the page (written for this case, not part of the
 * library): class-transformer 0.2.x ships its browser build as named AMD
 * modules (define("class-transformer/...", [deps], factory)). define()
 * records each factory; amdRequire(name) runs it once, on first use, with
 * its dependencies. A module that is still being set up hands out its
 * (partly filled) exports object, as CommonJS does, which is enough for the
 * library's storage <-> executor cycle (both look each other up at call
 * time). */
(function (global) {
  'use strict';
  var factories = {};
  var modules = {};
  function amdRequire(name) {
    if (Object.prototype.hasOwnProperty.call(modules, name)) return modules[name].exports;
    var entry = factories[name];
    if (!entry) throw new Error('AMD module not defined: ' + name);
    var mod = modules[name] = {exports: {}};
    var args = entry.deps.map(function (dep) {
      if (dep === 'require') return amdRequire;
      if (dep === 'exports') return mod.exports;
      return amdRequire(dep);
    });
    entry.factory.apply(null, args);
    return mod.exports;
  }
  function define(name, deps, factory) {
    factories[name] = {deps: deps, factory: factory};
  }
  define.amd = {};
  global.define = define;
  global.amdRequire = amdRequire;
})(window);
