/* Order form: three sections of required text fields (seeded, the same on
 * every load) checked with the jQuery Validation plugin. The form starts
 * with a hidden order token input. Each Fill button types seeded values
 * into one section, one field at a time, and after each field re-checks
 * every field of the order with $(fields).valid(), as a live step check
 * would. Some seeded values are invalid, so a few errors stay on screen.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const SECTIONS = ['Shipping', 'Billing', 'Items'];
const FIELDS = 9;      /* fields per section */

const KINDS = [
  {label: 'Name', rules: {required: true, minlength: 3}},
  {label: 'Email', rules: {required: true, email: true}},
  {label: 'Zip', rules: {required: true, digits: true, minlength: 5}},
  {label: 'Phone', rules: {required: true, minlength: 7}},
  {label: 'City', rules: {required: true, minlength: 2}}
];
const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove',
  'harbor', 'iris', 'juniper', 'kestrel', 'linden', 'maple', 'north'];

const state = {validator: null, fields: null, shown: 0};

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

function pick(rand, list) { return list[Math.floor(rand() * list.length)]; }

/* A value for a field of the given kind; about one in six is invalid. */
function makeValue(rand, kind) {
  const bad = rand() < 0.17;
  const word = pick(rand, WORDS);
  switch (kind.label) {
    case 'Name': return bad ? 'x' : word + ' ' + pick(rand, WORDS);
    case 'Email': return bad ? word + '.example.com' : word + '@example.com';
    case 'Zip': return bad ? 'Z' + Math.floor(rand() * 9000) : String(10000 + Math.floor(rand() * 89999));
    case 'Phone': return bad ? '12' : '555' + String(1000 + Math.floor(rand() * 8999));
    default: return bad ? 'q' : word;
  }
}

function buildForm() {
  const form = document.getElementById('order');
  for (let s = 0; s < SECTIONS.length; s++) {
    const set = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = SECTIONS[s];
    set.appendChild(legend);
    for (let i = 0; i < FIELDS; i++) {
      const kind = KINDS[i % KINDS.length];
      const row = document.createElement('div');
      row.className = 'row';
      const id = 's' + s + 'f' + i;
      const name = document.createElement('label');
      name.className = 'name';
      name.htmlFor = id;
      name.textContent = kind.label + ' ' + (i + 1);
      const input = document.createElement('input');
      input.type = 'text';
      input.id = id;
      input.name = id;
      input.setAttribute('data-kind', String(i % KINDS.length));
      row.appendChild(name);
      row.appendChild(input);
      set.appendChild(row);
    }
    form.appendChild(set);
  }
}

function fillSection(index) {
  const t0 = performance.now();
  const rand = seededRandom(7100 + index * 31);
  const inputs = document.querySelectorAll('#order fieldset')[index].querySelectorAll('input');
  let checks = 0;
  let passed = 0;
  for (let i = 0; i < inputs.length; i++) {
    inputs[i].value = makeValue(rand, KINDS[Number(inputs[i].getAttribute('data-kind'))]);
    if (state.fields.valid()) passed++;
    checks++;
  }
  state.shown++;
  const shownErrors = $('#order label.error:visible');
  const texts = shownErrors.map(function labelText() { return this.htmlFor + '=' + $(this).text(); }).get();
  document.getElementById('status').textContent =
    SECTIONS[index] + ': ' + checks + ' checks, ' + passed + ' passed, ' +
    state.validator.numberOfInvalids() + ' invalid, ' + shownErrors.length +
    ' errors shown [' + texts.join('; ').length + ' chars], ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  buildForm();
  const rules = {};
  $('#order input[type=text]').each(function addRules() {
    rules[this.name] = KINDS[Number(this.getAttribute('data-kind'))].rules;
  });
  state.validator = $('#order').validate({
    rules: rules, onfocusout: false, onkeyup: false, onclick: false
  });
  /* the hidden token first, then every text field: the set a step check re-validates */
  state.fields = $('#order input');
  for (let i = 0; i < SECTIONS.length; i++) {
    document.getElementById('fill' + i).addEventListener('click', function onFill() { fillSection(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
