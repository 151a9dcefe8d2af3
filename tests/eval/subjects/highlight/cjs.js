/* lib/hljs-core.js is highlight.js's CommonJS build: it ends with
 * `module.exports = highlight`. This gives it the object to fill. */
var module = {exports: {}};
