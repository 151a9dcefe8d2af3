/* Todos: a small plain-JS todo list, the zamcap demo app (NEW build).
 *
 * NEW: renderList hides repeated titles (dedupeTitles), rescanning the whole
 * list for every visible todo: O(n^2), the regression zamcap finds.
 *
 * On load it creates TODO_COUNT todos with deterministic titles (a seeded
 * shuffle), renders the first PAGE_SIZE of them, and wires up: adding a
 * todo, the All / Active / Completed filters, ticking a todo done.
 *
 * Background work that has nothing to do with the regression, present in
 * both builds alike: a clock that ticks every 500 ms and refreshes word
 * statistics, a mouseover preview on list items, and a fake asynchronous
 * "save" after each change whose promise callbacks settle in an order that
 * varies from run to run. */
'use strict';

/* Sized so that the NEW build's regression stays over 5 mu (250 ms at
 * zamcap's mu of 50 ms) on a 2-core machine (scenarios/demo/README.md):
 * every title once, 10 verbs x 15 objects x 14 times. */
const TODO_COUNT = 2100;
const PAGE_SIZE = 25; /* rows rendered at once, newest first */
const VERBS = ['Buy', 'Fix', 'Clean', 'Call about', 'Email', 'Plan',
               'Review', 'Order', 'Return', 'Paint'];
const OBJECTS = ['the groceries', 'the bike', 'the kitchen sink', 'the garage',
                 'the dentist bill', 'the birthday party', 'the tax forms',
                 'the garden fence', 'the printer', 'the car tyres',
                 'the holiday photos', 'the bookshelf', 'the roof gutter',
                 'the school trip', 'the library books'];
const WHEN = ['today', 'tomorrow', 'before Monday', 'this weekend',
              'after work', 'next week', 'by Friday', 'tonight',
              'this month', 'at lunch', 'on Sunday', 'after dinner',
              'before the trip', 'this evening'];
const TAGS = ['home', 'work', 'errands', 'garden', 'family'];

const state = {todos: [], filter: 'all', nextId: 1, hoveredId: 0,
               lastSaved: ''};

/* mulberry32: the same sequence on every load. */
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

function createTodo(title, completed, tag) {
  return {id: state.nextId++, title: title, completed: completed, tag: tag};
}

function makeTodos(count) {
  const rand = seededRandom(20240611);
  const titles = [];
  for (const verb of VERBS)
    for (const object of OBJECTS)
      for (const when of WHEN) titles.push([verb, object, when].join(' '));
  for (let i = titles.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const swap = titles[i];
    titles[i] = titles[j];
    titles[j] = swap;
  }
  /* Newest first: the further down the list, the likelier it is done. */
  const todos = [];
  for (let i = 0; i < count; i++) {
    const done = rand() < 0.25 + i / count / 2, tag = TAGS[i % TAGS.length];
    todos.push(createTodo(titles[i % titles.length], done, tag));
  }
  return todos;
}

/* ---- rendering ---- */

function createTodoRow(todo) {
  const row = document.createElement('li');
  row.className = todo.completed ? 'todo-item completed' : 'todo-item';
  row.dataset.id = String(todo.id);
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.checked = todo.completed;
  box.setAttribute('aria-label', 'Done: ' + todo.title);
  const title = document.createElement('span');
  title.className = 'title';
  title.textContent = todo.title;
  const tag = document.createElement('span');
  tag.className = 'tag';
  tag.textContent = todo.tag;
  row.append(box, title, tag);
  return row;
}

function showCount(shown, total) {
  document.getElementById('shown').textContent =
      'showing ' + shown + ' of ' + total;
}

/* A key that ignores case: "Fix the Bike" and "fix the bike" get the same
 * one (FNV-1a over the characters, ASCII letters folded to lower case). */
function titleKey(title) {
  let hash = 2166136261;
  for (let i = 0; i < title.length; i++)
    hash = Math.imul(hash ^ (title.charCodeAt(i) | 32), 16777619);
  return hash >>> 0;
}

/* A todo stays only if it is the first (newest) in the list with its key. */
function dedupeTitles(items) {
  const unique = [];
  for (const todo of items) {
    const key = titleKey(todo.title);
    let first = todo;
    for (const other of state.todos)
      if (titleKey(other.title) === key) { first = other; break; }
    if (first === todo) unique.push(todo);
  }
  return unique;
}

function renderList() {
  const items = dedupeTitles(visibleTodos(state.filter));
  const page = items.slice(0, PAGE_SIZE);
  const rows = [];
  for (const todo of page) rows.push(createTodoRow(todo));
  document.getElementById('todo-list').replaceChildren(...rows);
  showCount(page.length, items.length);
}

/* The first paint shows the stored order as it is, without filtering (and
 * without warming up the filter path before a trace starts). */
function renderFirstPage() {
  const list = document.getElementById('todo-list');
  for (const todo of state.todos.slice(0, PAGE_SIZE))
    list.appendChild(createTodoRow(todo));
  showCount(list.children.length, state.todos.length);
}

function prependTodoRow(todo) {
  const list = document.getElementById('todo-list');
  list.prepend(createTodoRow(todo));
  if (list.children.length > PAGE_SIZE) list.lastElementChild.remove();
  showCount(list.children.length, visibleTodos(state.filter).length);
}

function updateCounter() {
  let left = 0;
  for (const todo of state.todos) if (!todo.completed) left++;
  document.getElementById('counter').textContent =
      left + (left === 1 ? ' item left' : ' items left');
}

/* ---- filtering ---- */

function isActive(todo) { return !todo.completed; }
function isCompleted(todo) { return todo.completed; }

function visibleTodos(filter) {
  if (filter === 'active') return state.todos.filter(isActive);
  if (filter === 'completed') return state.todos.filter(isCompleted);
  return state.todos.slice();
}

function markFilterButton(filter) {
  for (const button of document.querySelectorAll('.filter'))
    button.setAttribute('aria-pressed', button.dataset.filter === filter);
}

function applyFilter(filter) {
  state.filter = filter;
  renderList();
  markFilterButton(filter);
  updateCounter();
  saveTodos('filter:' + filter);
}

function onFilterClick(event) {
  applyFilter(event.currentTarget.dataset.filter);
}

/* ---- adding and toggling ---- */

function addTodo(title) {
  const todo = createTodo(title, false, 'inbox');
  state.todos.unshift(todo);
  if (state.filter !== 'completed') prependTodoRow(todo);
  updateCounter();
  saveTodos('add');
}

function onAddSubmit(event) {
  event.preventDefault();
  const input = document.getElementById('new-todo');
  const title = input.value.trim();
  if (!title) return;
  addTodo(title);
  input.value = '';
}

function findTodo(id) {
  for (const todo of state.todos) if (todo.id === id) return todo;
  return null;
}

function onListChange(event) {
  const row = event.target.closest('.todo-item');
  const todo = row && findTodo(Number(row.dataset.id));
  if (!todo) return;
  todo.completed = event.target.checked;
  row.classList.toggle('completed', todo.completed);
  updateCounter();
  saveTodos('toggle');
}

/* ---- noise: hover preview ---- */

function countSameTag(todo) {
  let same = 0;
  for (const other of state.todos) if (other.tag === todo.tag) same++;
  return same;
}

function onListMouseOver(event) {
  const row = event.target.closest('.todo-item');
  if (!row || Number(row.dataset.id) === state.hoveredId) return;
  const previous = document.querySelector('.todo-item.hovered');
  if (previous) previous.classList.remove('hovered');
  row.classList.add('hovered');
  state.hoveredId = Number(row.dataset.id);
  const todo = findTodo(state.hoveredId);
  document.getElementById('hover-info').textContent =
      todo ? '#' + todo.tag + ' (' + countSameTag(todo) + ' todos)' : '';
}

/* ---- noise: clock and statistics, every 500 ms ---- */

function computeWordStats() {
  const counts = new Map();
  for (const todo of state.todos)
    for (const word of todo.title.toLowerCase().split(' '))
      if (word.length > 3) counts.set(word, (counts.get(word) || 0) + 1);
  let top = '', best = 0;
  for (const [word, count] of counts)
    if (count > best) { top = word; best = count; }
  return {words: counts.size, top: top};
}

function tickClock() {
  const now = new Date();
  document.getElementById('clock').textContent = now.toTimeString().slice(0, 8);
  const stats = computeWordStats();
  document.getElementById('stats').textContent =
      state.todos.length + ' todos, ' + stats.words +
      ' distinct words, most used: "' + stats.top + '"';
}

/* ---- noise: a fake asynchronous save ---- */

function serializeTodos(todos) { return JSON.stringify(todos); }
function storeSnapshot(json) { state.lastSaved = json; }

function fakeRequest(payload, latencyMs) {
  return new Promise(function startRequest(resolve) {
    setTimeout(resolve, latencyMs, payload);
  });
}

function onSaveAcknowledged(reason) {
  document.getElementById('save-status').textContent =
      'saved (' + reason + ', ' + Math.round(state.lastSaved.length / 1024) +
      ' KB)';
}

function onAnalyticsSent(reason) {
  document.body.dataset.lastEvent = reason;
}

function saveTodos(reason) {
  Promise.resolve(state.todos.slice()).then(serializeTodos).then(storeSnapshot);
  /* The "server" answers after 0-6 ms: the two callbacks below run in an
   * order that depends on the clock. */
  fakeRequest(reason, Date.now() % 7).then(onSaveAcknowledged);
  fakeRequest(reason, 3).then(onAnalyticsSent);
}

/* ---- start ---- */

function startApp() {
  state.todos = makeTodos(TODO_COUNT);
  document.getElementById('add-form').addEventListener('submit', onAddSubmit);
  for (const button of document.querySelectorAll('.filter'))
    button.addEventListener('click', onFilterClick);
  const list = document.getElementById('todo-list');
  list.addEventListener('change', onListChange);
  list.addEventListener('mouseover', onListMouseOver);
  renderFirstPage();
  updateCounter();
  tickClock();
  setInterval(tickClock, 500);
}

startApp();
