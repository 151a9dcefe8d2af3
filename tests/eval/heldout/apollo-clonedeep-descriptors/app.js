/* News feed: each "Refresh feed" click receives the feed query's next
 * result (a GraphQL-shaped tree: stories with their author, tags and
 * comment counts, generated from a fixed seed) and handles it the way
 * apollo-client's ObservableQuery does: it keeps a defensive snapshot of
 * the result with apollo-utilities' cloneDeep (lastResult), compares it
 * with the previous one (isEqual), and hands the view its own deep copy
 * before summarising it. Nothing heavy runs on load.
 * A real regression for zamcap's accuracy experiment (NOTE.md): see there. */
(function () {
  'use strict';
  var utils = window.apollo.utilities;
  var STORIES = 22000;
  var TAGS = ['js', 'css', 'rust', 'go', 'ml', 'db', 'web', 'ops', 'sec', 'ui'];
  var state = {refreshes: 0, lastResult: null};

  /* a multiply-with-carry generator with a fixed seed */
  function makeMwc(seed) {
    var z = seed >>> 0, w = 521288629;
    return function next() {
      z = (36969 * (z & 65535) + (z >>> 16)) >>> 0;
      w = (18000 * (w & 65535) + (w >>> 16)) >>> 0;
      return (((z << 16) + w) >>> 0) / 4294967296;
    };
  }

  function makeStory(rnd, i, round) {
    var author = Math.floor(rnd() * 300);
    return {
      __typename: 'Story',
      id: 's' + i,
      title: 'Story ' + i + ' about ' + TAGS[i % TAGS.length],
      url: 'https://news.example.com/s/' + i,
      points: Math.floor(rnd() * 500) + round,
      commentCount: Math.floor(rnd() * 120),
      createdAt: '2018-10-' + (10 + (i % 20)),
      tags: [TAGS[i % TAGS.length], TAGS[(i * 7) % TAGS.length]],
      author: {__typename: 'User', id: 'u' + author, name: 'user' + author, karma: author * 13},
    };
  }

  /* the "network": the feed query's result for this refresh */
  function fetchFeed(round) {
    var rnd = makeMwc(104729 + round);
    var stories = [];
    for (var i = 0; i < STORIES; i++) stories.push(makeStory(rnd, i, round));
    return {data: {feed: {__typename: 'Feed', cursor: 'c' + round, stories: stories}}};
  }

  /* ObservableQuery keeps a snapshot of every result it delivers */
  function snapshotResult(result) {
    return utils.cloneDeep(result);
  }

  /* the view gets its own copy, so that it cannot change the snapshot */
  function currentResult() {
    return utils.cloneDeep(state.lastResult);
  }

  function summarise(result) {
    var stories = result.data.feed.stories, authors = {}, top = stories[0];
    for (var i = 0; i < stories.length; i++) {
      authors[stories[i].author.id] = true;
      if (stories[i].points > top.points) top = stories[i];
    }
    return {stories: stories.length, authors: Object.keys(authors).length, top: top.title, points: top.points};
  }

  function renderRow(n, s) {
    var tr = document.createElement('tr');
    [n, s.stories, s.authors, s.top, s.points].forEach(function (v) {
      var td = document.createElement('td');
      td.textContent = String(v);
      tr.appendChild(td);
    });
    document.getElementById('log').appendChild(tr);
  }

  function refreshFeed() {
    var t0 = performance.now();
    var result = fetchFeed(state.refreshes);
    var previous = state.lastResult;
    state.lastResult = snapshotResult(result);
    var changed = !previous || !utils.isEqual(previous.data.feed.cursor, result.data.feed.cursor);
    var s = summarise(currentResult());
    state.refreshes++;
    renderRow(state.refreshes, s);
    document.getElementById('status').textContent = (changed ? 'updated' : 'unchanged') +
      ' in ' + Math.round(performance.now() - t0) + ' ms';
    document.body.dataset.loaded = String(state.refreshes);
  }

  document.getElementById('refresh').addEventListener('click', refreshFeed);
  document.body.dataset.ready = '1';
})();
