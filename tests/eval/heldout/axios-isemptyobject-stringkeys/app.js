// Bulk indexer: each click builds one Elasticsearch-style bulk body
// (newline-delimited JSON, about 187 KB) from seeded data and POSTs it
// with axios. The request is answered by a local adapter, so there is
// no network; the adapter counts the bulk actions like a server would.
"use strict";

var DOCS_PER_BATCH = 1200;
var CATEGORIES = ["books", "music", "films"];
var WORDS = ["amber", "delta", "harbor", "lumen", "meadow", "nickel", "orbit",
  "quartz", "raven", "sierra", "tundra", "velvet", "willow", "yonder", "zephyr",
  "cobalt", "ember", "fjord", "granite", "hollow"];

function makeRandom(seed) {
  var state = seed >>> 0;
  return function random() {
    state = (state + 0x6D2B79F5) >>> 0;
    var t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeTitle(random) {
  var n = 2 + Math.floor(random() * 3);
  var words = [];
  for (var i = 0; i < n; i++) words.push(WORDS[Math.floor(random() * WORDS.length)]);
  return words.join(" ");
}

function makeDocument(category, index, random) {
  return {
    id: category + "-" + index,
    category: category,
    title: makeTitle(random),
    year: 1950 + Math.floor(random() * 75),
    price: Math.round(random() * 5000) / 100,
    stock: Math.floor(random() * 40)
  };
}

function buildBulkBody(category, seed) {
  var random = makeRandom(seed);
  var lines = [];
  for (var i = 0; i < DOCS_PER_BATCH; i++) {
    var doc = makeDocument(category, i, random);
    lines.push(JSON.stringify({ index: { _index: "catalogue", _id: doc.id } }));
    lines.push(JSON.stringify(doc));
  }
  return lines.join("\n") + "\n";
}

function countBulkActions(body) {
  var count = 0;
  var pos = body.indexOf("\n");
  while (pos !== -1) {
    count++;
    pos = body.indexOf("\n", pos + 1);
  }
  return count / 2;
}

function localBulkAdapter(config) {
  var items = countBulkActions(config.data);
  var reply = JSON.stringify({ errors: false, items: items, bytes: config.data.length });
  return Promise.resolve({
    data: reply,
    status: 200,
    statusText: "OK",
    headers: { "content-type": "application/json" },
    config: config,
    request: {}
  });
}

var client = axios.create({
  baseURL: "http://127.0.0.1:8080/search",
  adapter: localBulkAdapter,
  timeout: 0
});

var sent = 0;

function showResult(category, result) {
  var line = document.createElement("div");
  line.textContent = category + ": " + result.items + " documents indexed (" +
    result.bytes + " bytes), errors: " + result.errors;
  document.getElementById("log").appendChild(line);
  sent++;
  document.body.dataset.shown = String(sent);
}

function indexCategory(which) {
  var category = CATEGORIES[which];
  var body = buildBulkBody(category, 1000 + which);
  return client.post("/_bulk", body, {
    headers: { "Content-Type": "application/x-ndjson" }
  }).then(function onBulkResponse(response) {
    showResult(category, response.data);
  });
}

function setup() {
  CATEGORIES.forEach(function (category, which) {
    document.getElementById("send" + which).addEventListener("click", function onSendClick() {
      indexCategory(which);
    });
  });
  document.body.dataset.ready = "1";
}

setup();
