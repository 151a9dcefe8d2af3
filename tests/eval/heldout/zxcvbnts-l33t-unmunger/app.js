/* Password audit: an admin page of a sign-up service re-checks the symbol
 * passwords (PIN-pad and keyboard-mash style) that each team proposed, with
 * zxcvbn-ts (core + the common dictionaries), and lists each one's score and
 * guesses. The lists are fixed data, the same on every load. Nothing is
 * checked on load; each Audit button checks one team's list.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const TEAMS = ['Sales', 'Support', 'Finance'];
const PROPOSED = [
  [
    "7@13!4!@1!!13!1",
    "3!75+@@!35!@!!|!",
    "!0+@30!$@!1317|5!|",
    "@503!01771@$0+004",
    "++75|$!133015+7!1!0",
    "@@053$4||47@!0141!3",
    "|3573!!+||3$!$1",
    "173!17@314!14+|"
  ],
  [
    "$3!1+4!+3!!3!",
    "!!@!!374!@47!|!$10|",
    "4+3!!$$!!$7$5",
    "03011!!@0|10",
    "70$1!5|73|+!5!!3!|",
    "3541@373!@5$1!|$+1|",
    "|4!3057135@!01$1$",
    "0@5!!55@|$!1!"
  ],
  [
    "33+74+!150+04+71@4@",
    "4!!17!!707$!5!@7",
    "13$+!++@!34$+!4|@",
    "7$$!+5!3$401$7!$44",
    "4$371@|77$@7!$",
    "$!!1!$1!4!005!@!047",
    "4$@5143$31!!0@7!$$!",
    "@141@34!!+!++0+!+"
  ]
];

const state = {shown: 0};

function checkPassword(password) {
  const result = zxcvbnts.core.zxcvbn(password);
  return {score: result.score, log10: result.guessesLog10.toFixed(2)};
}

function auditTeam(index) {
  const t0 = performance.now();
  const list = PROPOSED[index];
  const rows = [];
  let weak = 0;
  for (let i = 0; i < list.length; i++) {
    const r = checkPassword(list[i]);
    if (r.score < 3) weak++;
    rows.push(list[i] + '  score ' + r.score + '  guesses 10^' + r.log10);
  }
  state.shown++;
  document.getElementById('results').textContent = rows.join('\n');
  document.getElementById('status').textContent =
    TEAMS[index] + ': ' + list.length + ' passwords checked, ' + weak + ' weak, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  const common = zxcvbnts['language-common'];
  zxcvbnts.core.zxcvbnOptions.setOptions({
    dictionary: Object.assign({}, common.dictionary),
    graphs: common.adjacencyGraphs
  });
  for (let i = 0; i < TEAMS.length; i++) {
    document.getElementById('audit' + i).addEventListener('click', function onAudit() { auditTeam(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
