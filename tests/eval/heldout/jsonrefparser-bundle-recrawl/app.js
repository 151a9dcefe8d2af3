/* Schema bundler page for the json-schema-ref-parser 4.0.4 -> 4.1.0 bundle() regression. */
(function () {
  'use strict';

  // name, number of chains, chain length, fields per definition
  var SCHEMAS = [
    { name: 'orders', chains: 2, length: 60, fields: 3 },
    { name: 'catalog', chains: 1, length: 80, fields: 2 },
    { name: 'billing', chains: 3, length: 45, fields: 4 }
  ];

  var shown = 0;

  function makeFields(chain, step, count) {
    var props = { id: { type: 'integer', minimum: 0 } };
    for (var f = 0; f < count; f++) {
      props['field' + f] = { type: 'string', maxLength: 10 + ((chain * 7 + step * 3 + f) % 50) };
    }
    return props;
  }

  function buildSchema(spec) {
    var definitions = {};
    var rootProps = {};
    for (var c = 0; c < spec.chains; c++) {
      for (var k = 0; k < spec.length; k++) {
        var props = makeFields(c, k, spec.fields);
        if (k + 1 < spec.length) {
          props.next = { $ref: '#/definitions/' + spec.name + c + '_' + (k + 1) };
        }
        definitions[spec.name + c + '_' + k] = {
          type: 'object',
          description: spec.name + ' level ' + k,
          properties: props
        };
      }
      rootProps['chain' + c] = { $ref: '#/definitions/' + spec.name + c + '_0' };
    }
    return { title: spec.name, type: 'object', properties: rootProps, definitions: definitions };
  }

  function countRefs(value) {
    if (!value || typeof value !== 'object') return 0;
    var n = typeof value.$ref === 'string' ? 1 : 0;
    var keys = Object.keys(value);
    for (var i = 0; i < keys.length; i++) n += countRefs(value[keys[i]]);
    return n;
  }

  function checksum(text) {
    var h = 0;
    for (var i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
    return (h >>> 0).toString(16);
  }

  function renderResult(spec, bundled) {
    var text = JSON.stringify(bundled);
    var row = document.createElement('tr');
    var cells = [spec.name, Object.keys(bundled.definitions).length, countRefs(bundled),
      text.length, checksum(text)];
    for (var i = 0; i < cells.length; i++) {
      var td = document.createElement('td');
      td.textContent = String(cells[i]);
      row.appendChild(td);
    }
    document.getElementById('results').appendChild(row);
    document.getElementById('preview').textContent = JSON.stringify(bundled.properties, null, 2);
  }

  function bundleSchema(index) {
    var spec = SCHEMAS[index];
    var schema = buildSchema(spec);
    return $RefParser.bundle(schema).then(function (bundled) {
      renderResult(spec, bundled);
      shown += 1;
      document.body.dataset.shown = String(shown);
    }, function (err) {
      document.getElementById('preview').textContent = 'Error: ' + err.message;
      shown += 1;
      document.body.dataset.shown = String(shown);
    });
  }

  function onBundleClick(event) {
    var index = Number(event.currentTarget.id.replace('bundle', ''));
    bundleSchema(index);
  }

  function init() {
    for (var i = 0; i < SCHEMAS.length; i++) {
      document.getElementById('bundle' + i).addEventListener('click', onBundleClick);
    }
    document.body.dataset.ready = '1';
  }

  init();
})();
