/* Survey submissions check: a survey platform keeps one JSON schema per
 * survey (all surveys are made from the same template, so their schemas
 * differ only in the last question's settings) and checks incoming
 * submissions with one z-schema validator, passing each survey's schema
 * object to validate(). Each batch button checks one day's submissions
 * (one per survey, in a shuffled order) and lists the first results.
 * A real regression for zamcap's accuracy experiment (NOTE.md): z-schema
 * 3.18.1 looks a schema object up in its reference cache with a deep
 * lodash isEqual against every cached schema instead of ===. */
'use strict';

const BATCHES = ['Monday submissions', 'Tuesday submissions', 'Wednesday submissions'];
const SURVEYS = 320;
const SHOWN = 25;
const QUESTIONS = ['respondent', 'email', 'age', 'country', 'city', 'visits',
  'satisfied', 'recommend', 'rating', 'comment', 'newsletter', 'channel'];

const state = {schemas: null, validator: null, opened: 0};

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

function questionSchema(k) {
  if (k % 3 === 0) return {type: 'integer', minimum: 0, maximum: 1000};
  if (k % 3 === 1) return {type: 'string', minLength: 1, maxLength: 80};
  return {type: 'boolean'};
}

function surveySchema(index) {
  const properties = {};
  for (let k = 0; k < QUESTIONS.length; k++) {
    properties[QUESTIONS[k]] = questionSchema(k);
  }
  properties.extra = {
    type: 'object',
    properties: {
      source: {type: 'string', maxLength: 40},
      score: {type: 'integer', minimum: 0, maximum: 10 + index}
    },
    required: ['score']
  };
  return {type: 'object', properties: properties, required: QUESTIONS.slice(0, 4)};
}

function makeSchemas() {
  const schemas = [];
  for (let i = 0; i < SURVEYS; i++) schemas.push(surveySchema(i));
  return schemas;
}

function makeSubmission(rand, survey) {
  const answer = {};
  for (let k = 0; k < QUESTIONS.length; k++) {
    if (k % 3 === 0) answer[QUESTIONS[k]] = Math.floor(rand() * 1200);
    else if (k % 3 === 1) answer[QUESTIONS[k]] = 'a' + Math.floor(rand() * 1e6);
    else answer[QUESTIONS[k]] = rand() < 0.5;
  }
  answer.extra = {source: 'web', score: Math.floor(rand() * 20)};
  answer.survey = survey;
  return answer;
}

function makeBatch(index) {
  const rand = seededRandom(777 + index * 97);
  const order = [];
  for (let i = 0; i < SURVEYS; i++) order.push(i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = order[i]; order[i] = order[j]; order[j] = t;
  }
  return order.map(function submissionFor(survey) { return makeSubmission(rand, survey); });
}

function checkSubmission(submission) {
  const schema = state.schemas[submission.survey];
  const valid = state.validator.validate(submission, schema);
  const errors = valid ? [] : state.validator.getLastErrors();
  return {survey: submission.survey, valid: valid, errors: errors.length,
          first: errors.length ? errors[0].path + ' ' + errors[0].code : ''};
}

function checkBatch(index) {
  if (!state.schemas) {
    state.schemas = makeSchemas();
    state.validator = new window.ZSchema({breakOnFirstError: false});
  }
  const submissions = makeBatch(index);
  const results = [];
  let valid = 0;
  for (let i = 0; i < submissions.length; i++) {
    const result = checkSubmission(submissions[i]);
    if (result.valid) valid++;
    results.push(result);
  }
  return {results: results, valid: valid};
}

function render(name, outcome) {
  const rows = document.getElementById('rows');
  rows.textContent = '';
  for (let i = 0; i < Math.min(SHOWN, outcome.results.length); i++) {
    const r = outcome.results[i];
    const tr = document.createElement('tr');
    tr.innerHTML = '<td>survey ' + r.survey + '</td><td>' + (r.valid ? 'ok' : 'invalid') +
      '</td><td>' + r.errors + '</td><td>' + r.first + '</td>';
    rows.appendChild(tr);
  }
  document.getElementById('status').textContent =
    name + ': ' + outcome.valid + ' of ' + outcome.results.length + ' valid';
}

function onBatchClick(event) {
  const index = Number(event.currentTarget.dataset.batch);
  render(BATCHES[index], checkBatch(index));
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function init() {
  const nav = document.getElementById('batches');
  BATCHES.forEach(function addButton(name, index) {
    const b = document.createElement('button');
    b.id = 'batch' + index;
    b.textContent = name;
    b.dataset.batch = String(index);
    b.addEventListener('click', onBatchClick);
    nav.appendChild(b);
  });
  document.body.dataset.ready = '1';
}

init();
