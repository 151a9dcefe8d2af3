#!/usr/bin/env python3
"""The accuracy experiment of the ZAM paper (section 5.2) for zamcap, as one
command: fault injection into web apps, zamcap runs, and the paper's
metrics (Table 2, RQ2, RQ3, RQ4). See tests/eval/README.md.

Stdlib only. Run it through tests/eval/run.sh, or directly:
    python3 tests/eval/zameval.py [--quick] [--subjects a,b] [--injections N]
                                  [--pairs P] [--seed S] [--out DIR]
    python3 tests/eval/zameval.py --real [a,b] [--pairs P] [--out DIR]
                                      # real regressions (realeval.py)
    python3 tests/eval/zameval.py --heldout [a,b] ...
                                      # the same, from tests/eval/heldout/
    python3 tests/eval/zameval.py --reanalyze DIR     # metrics again, no browser
"""

import argparse
import datetime
import gzip
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import jsedit  # noqa: E402

TYPES = (1, 2, 3)
TYPE_NAMES = {1: 'inefficient API call', 2: 'long loop at start',
              3: 'repeated condition check'}
CHECK_MS = 10.0          # injection 3: cost of one condition check (paper: ~10 ms)
DEMO = os.path.join(ROOT, 'scenarios', 'demo')
SUBJ = os.path.join(HERE, 'subjects')
SUBJECTS = {
    'todo': (os.path.join(DEMO, 'todo.json'), os.path.join(DEMO, 'todo', 'old')),
    'search': (os.path.join(DEMO, 'search.json'), os.path.join(DEMO, 'search', 'old')),
}
for _name in sorted(os.listdir(SUBJ)) if os.path.isdir(SUBJ) else []:
    if os.path.isfile(os.path.join(SUBJ, _name, 'scenario.json')):
        SUBJECTS[_name] = (os.path.join(SUBJ, _name, 'scenario.json'),
                           os.path.join(SUBJ, _name))
NOT_SERVED = {'scenario.json', 'libs.txt', 'README.md'}

T0 = time.time()


def log(msg):
    sys.stderr.write('[zameval %6.1fs] %s\n' % (time.time() - T0, msg))
    sys.stderr.flush()


def dump(path, obj):
    with open(path + '.tmp', 'w') as f:
        json.dump(obj, f, indent=1, sort_keys=False)
    os.replace(path + '.tmp', path)


def load(path):
    with open(path) as f:
        return json.load(f)


# ---------------------------------------------------------------- zamcap --

class Zamcap:
    def __init__(self, binary, nice, lock=None):
        self.binary = binary
        self.nice = nice
        self.lock = lock

    def run(self, args, logfile, timeout=1800, browser=False):
        """browser: the command launches Chromium; with --lock it runs under
        flock(1) on that file, one browser run at a time among processes
        sharing the machine."""
        cmd = (['nice', '-n', '10'] if self.nice else []) + [self.binary] + args
        if browser and self.lock:
            cmd = ['flock', self.lock] + cmd
        with open(logfile, 'a') as lf:
            lf.write('$ ' + ' '.join(cmd) + '\n')
            lf.flush()
            try:
                p = subprocess.run(cmd, stdout=lf, stderr=lf, timeout=timeout)
                code = p.returncode
            except subprocess.TimeoutExpired:
                code = -1
            lf.write('exit %d\n' % code)
        return code

    def tree(self, trace):
        out = subprocess.run([self.binary, 'tree', trace, '--min', '0'],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
        return parse_tree(out.stdout.decode('utf-8', 'replace'))


TREE_LINE = re.compile(r'^(?P<ind> *)(?:\[(?P<depth>\d+)\] )?(?P<name>.*?)  '
                       r'(?P<total>[\d.]+) ms \(self (?P<self>[\d.]+)\)'
                       r'(?:  (?P<comp>\S+):(?P<line>\d+))?(?P<tag> \[[a-z-]+\])?$')


def parse_tree(text):
    """`zamcap tree --min 0` output as a list of nodes: name, comp, line,
    total, depth (1 = thread), kind, parent (index or -1), path (tuple of
    (name, comp) from the thread down)."""
    nodes, stack = [], []
    for raw in text.splitlines()[1:]:
        m = TREE_LINE.match(raw)
        if not m:
            continue
        depth = int(m.group('depth')) if m.group('depth') else len(m.group('ind')) // 2
        tag = (m.group('tag') or '').strip()
        kind = 'thread' if tag == '[thread]' else 'marker' if tag == '[non-script]' else 'fn'
        while stack and nodes[stack[-1]]['depth'] >= depth:
            stack.pop()
        parent = stack[-1] if stack else -1
        comp = m.group('comp') or ''
        node = {'name': m.group('name'), 'comp': comp,
                'line': int(m.group('line')) if m.group('line') else None,
                'total': float(m.group('total')), 'self': float(m.group('self')),
                'depth': depth, 'kind': kind,
                'parent': parent}
        key = (node['name'], comp)
        node['path'] = (nodes[parent]['path'] if parent >= 0 else ()) + (key,)
        nodes.append(node)
        stack.append(len(nodes) - 1)
    return nodes


# ---------------------------------------------------------------- traces --

def trace_events(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        d = json.load(f)
    return d['traceEvents'] if isinstance(d, dict) else d


def trace_frames(path):
    """Distinct JS call frames with a URL: (name, url, line0, col0)."""
    out = set()
    for e in trace_events(path):
        if e.get('name') != 'ProfileChunk':
            continue
        prof = e.get('args', {}).get('data', {}).get('cpuProfile', {})
        for n in prof.get('nodes', []) or []:
            cf = n.get('callFrame', {})
            if cf.get('url') and cf.get('lineNumber') is not None:
                out.add((cf.get('functionName', ''), cf['url'], cf['lineNumber'],
                         cf.get('columnNumber', 0)))
    return out


def trace_marks(path, prefix):
    """User-timing marks whose name starts with prefix, in time order, the
    prefix removed."""
    marks = [(e.get('ts', 0), k, e['name']) for k, e in enumerate(trace_events(path))
             if 'user_timing' in str(e.get('cat', '')) and isinstance(e.get('name'), str)
             and e['name'].startswith(prefix)]
    marks.sort()
    return [m[2][len(prefix):] for m in marks]


def component(url):
    """zamcap's component: the URL's path (the builds are not hashed)."""
    return urllib.parse.urlparse(url).path


def short_name(name):
    return len(name) < 2 or name == '(anonymous)'


# ---------------------------------------------------------------- builds --

def copy_build(src, dst, subject_dir):
    if os.path.exists(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    for entry in os.listdir(src):
        if entry in NOT_SERVED:
            continue
        s, d = os.path.join(src, entry), os.path.join(dst, entry)
        if os.path.isdir(s):
            shutil.copytree(s, d)
        else:
            shutil.copy2(s, d)
    if subject_dir and os.path.isfile(os.path.join(subject_dir, 'libs.txt')):
        subprocess.run([os.path.join(HERE, 'fetch-libs.sh'), '--copy', subject_dir, dst],
                       check=True)


def clone_build(src, dst):
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst)


NODE = shutil.which('node')


def syntax_ok(path):
    """node --check, as a script and then as a module; True when node is
    missing (nothing to check with)."""
    if not NODE:
        return True
    for suffix in ('.js', '.mjs'):
        tmp = path + '.zamcheck' + suffix
        shutil.copy(path, tmp)
        try:
            p = subprocess.run([NODE, '--check', tmp], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
        finally:
            os.unlink(tmp)
        if p.returncode == 0:
            return True
    return False


def busy_code(ms):
    """Inline busy wait of `ms` milliseconds: arithmetic in chunks that grow
    by a quarter up to 8192 iterations, so that the clock (`performance.now`,
    a frame of its own in the profile) is read rarely and the last chunk
    overshoots little. One line: no line of the file moves."""
    return ('{const __zE=performance.now()+%.4f;let __zN=64,__zX=0;do{for(let __zI=0;'
            '__zI<__zN;__zI++)__zX=(__zX*31+__zI)|0;if(__zN<8192)__zN=(__zN*1.25)|0}'
            'while(performance.now()<__zE);globalThis.__zamSink=__zX}' % ms)


PROBE_JS = """/* zameval probe: counts calls and condition checks, reported as
 * user-timing marks "zameval:counts:<n0>,<n1>,..." at every zamcap step mark
 * and every 200 ms. Only in the probe build. */
(function () {
  var counts = new Float64Array(%d);
  globalThis.__zc = counts;
  /* An API call counts when its callback is called, and called by a
   * built-in (the frame above the callback has no script URL): a
   * `.filter(cb)` on a lodash chain calls cb from lodash's code, where a
   * delay would land in the library's frames, not in the caller. */
  function calledByBuiltin() {
    var limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 4;
    var line = (new Error().stack || '').split('\\n')[3] || '';
    Error.stackTraceLimit = limit;
    return line.indexOf('(<anonymous>)') >= 0 || line.indexOf('(native)') >= 0;
  }
  globalThis.__zcw = function (id, f) {
    if (typeof f !== 'function') return f;
    var first = true;
    return function () {
      if (first) { first = false; if (calledByBuiltin()) counts[id]++; }
      return f.apply(this, arguments);
    };
  };
  var mark = performance.mark.bind(performance);
  function emit() { mark('zameval:counts:' + Array.prototype.join.call(counts, ',')); }
  performance.mark = function (name) {
    var r = mark.apply(null, arguments);
    if (typeof name === 'string' && name.indexOf('zamcap:') === 0) emit();
    return r;
  };
  setInterval(emit, 200);
})();
"""


# ---------------------------------------------------------- the experiment --

class Experiment:
    def __init__(self, args):
        self.a = args
        self.out = args.out
        self.z = Zamcap(args.zamcap, not args.no_nice, args.lock)

    # -- running zamcap --

    def run_pairs(self, name, scenario, old, new, outdir):
        """The one command, then `compare --pairs N` for N = 1..pairs."""
        os.makedirs(outdir, exist_ok=True)
        run = os.path.join(outdir, 'run')
        logf = os.path.join(outdir, 'zamcap.log')
        if not os.path.isfile(os.path.join(run, 'report.json')) or self.a.rerun:
            code = self.z.run([scenario, '--old', old, '--new', new, '--pairs',
                               str(self.a.pairs), '--mu', str(self.a.mu), '--out', run, '-q'],
                              logf, browser=True)
            if code not in (0, 1, 3, 5):
                return {'error': 'zamcap run exited %d (see %s)' % (code, logf)}
        self.split_traces(run)
        pairs = self.pair_count(run)
        if pairs == 0:
            return {'error': 'no complete pair of traces (see %s)' % logf}
        for n in range(1, pairs + 1):
            cmp_dir = os.path.join(outdir, 'cmp-%d' % n)
            if os.path.isfile(os.path.join(cmp_dir, 'report.json')) and not self.a.rerun:
                continue
            code = self.z.run(['compare', os.path.join(run, 'old'), os.path.join(run, 'new'),
                               '--pairs', str(n), '--mu', str(self.a.mu), '--out', cmp_dir,
                               '-q'], logf)
            if code not in (0, 1, 5):  # 5: inconclusive, still a report
                return {'error': 'zamcap compare exited %d (see %s)' % (code, logf)}
        return {'pairs': pairs}

    @staticmethod
    def split_traces(run):
        """old/ and new/ folders of links to the complete pairs' traces."""
        traces = os.path.join(run, 'traces')
        if not os.path.isdir(traces):
            return
        have = set(os.listdir(traces))
        idx = sorted(int(m.group(1)) for f in have
                     for m in [re.match(r'old-(\d+)\.json\.gz$', f)] if m)
        k = 0
        for side in ('old', 'new'):
            d = os.path.join(run, side)
            if os.path.isdir(d):
                shutil.rmtree(d)
            os.makedirs(d)
        for i in idx:
            if 'new-%d.json.gz' % i not in have:
                continue
            k += 1
            for side in ('old', 'new'):
                os.symlink(os.path.join('..', 'traces', '%s-%d.json.gz' % (side, i)),
                           os.path.join(run, side, '%s-%02d.json.gz' % (side, k)))
        # the count pairs' calls (zamcap-calls/1), when the run took them
        for i in sorted(int(m.group(1)) for f in have
                        for m in [re.match(r'old-calls-(\d+)\.calls\.json$', f)] if m):
            if 'new-calls-%d.calls.json' % i not in have:
                continue
            for side in ('old', 'new'):
                os.symlink(os.path.join('..', 'traces', '%s-calls-%d.calls.json' % (side, i)),
                           os.path.join(run, side, '%s-calls-%02d.calls.json' % (side, i)))

    @staticmethod
    def pair_count(run):
        d = os.path.join(run, 'old')
        return len([f for f in os.listdir(d) if f.endswith('.json.gz')]) \
            if os.path.isdir(d) else 0

    # -- one subject --

    def subject(self, name):
        scenario, src = SUBJECTS[name]
        sdir = os.path.join(self.out, name)
        builds = os.path.join(sdir, 'builds')
        os.makedirs(builds, exist_ok=True)
        meta_path = os.path.join(sdir, 'injections.json')
        base = os.path.join(builds, 'baseline')
        subject_dir = src if src.startswith(SUBJ) else None
        if not os.path.isdir(base) or self.a.rerun:
            copy_build(src, base, subject_dir)
            clone_build(base, os.path.join(builds, 'baseline-copy'))

        log('%s: A/A run (%d pairs, baseline vs a copy of it)' % (name, self.a.pairs))
        aa = self.run_pairs(name, scenario, base, os.path.join(builds, 'baseline-copy'),
                            os.path.join(sdir, 'aa'))
        if 'error' in aa:
            log('%s: A/A failed: %s' % (name, aa['error']))
            return {'name': name, 'error': 'A/A: ' + aa['error']}

        if os.path.isfile(meta_path) and not self.a.rerun:
            meta = load(meta_path)
        else:
            meta = self.plan(name, scenario, base, sdir)
            dump(meta_path, meta)
        if 'error' in meta:
            return {'name': name, 'error': meta['error']}

        for inj in meta['injections']:
            idir = os.path.join(sdir, inj['id'])
            log('%s: %s: type %d (%s) in %s (%s:%d), %.2f ms x %d traced = %.0f ms' % (
                name, inj['id'], inj['type'], TYPE_NAMES[inj['type']], inj['function'],
                inj['component'], inj['line'], inj['cost_ms'], inj['count_traced'],
                inj['traced_ms']))
            r = self.run_pairs(name, scenario, base, os.path.join(builds, inj['id']), idir)
            inj['run'] = r
            if 'error' in r:
                log('%s: %s failed: %s' % (name, inj['id'], r['error']))
            dump(meta_path, meta)
        return {'name': name}

    # -- choosing the injections --

    def candidates(self, name, base, baseline_trace):
        """Named functions of the baseline timeline, located in the build's
        source: [{name, url, component, line, col, file, fn...}]"""
        tree = self.z.tree(baseline_trace)
        in_tree = {(n['name'], n['comp'], n['line']) for n in tree if n['kind'] == 'fn'}
        sources, out, skipped = {}, [], {}
        seen = set()
        for fname, url, line0, col0 in sorted(trace_frames(baseline_trace)):
            reason = None
            comp = component(url)
            path = os.path.normpath(os.path.join(base, comp.lstrip('/')))
            if short_name(fname):
                reason = 'anonymous or one character'
            elif (fname, comp, line0 + 1) not in in_tree:
                reason = 'not in the pruned timeline'
            elif not path.startswith(base + os.sep) or not os.path.isfile(path) or \
                    not path.endswith(('.js', '.mjs')):
                reason = 'not a script file of the build'
            if reason is None and (comp, line0, col0) in seen:
                continue
            if reason is None:
                if path not in sources:
                    try:
                        with open(path, encoding='utf-8') as f:
                            sources[path] = jsedit.Source(f.read())
                    except (jsedit.JSError, UnicodeDecodeError) as e:
                        sources[path] = None
                        log('%s: cannot tokenize %s: %s' % (name, comp, e))
                src = sources[path]
                fn = src.find_function(line0, col0) if src else None
                if fn is None:
                    reason = 'no block body found at its position (expression arrow, class field)'
            if reason:
                skipped.setdefault(reason, []).append('%s %s:%d' % (fname, comp, line0 + 1))
                continue
            seen.add((comp, line0, col0))
            out.append({'function': fname, 'url': url, 'component': comp, 'line': line0 + 1,
                        'column': col0 + 1, 'file': os.path.relpath(path, base),
                        'conditions': src.conditions(fn), 'apis': src.api_calls(fn),
                        'entry': src.body_insert_offset(fn),
                        'has_conditions': bool(src.conditions(fn))})
        return out, skipped, tree

    def plan(self, name, scenario, base, sdir):
        baseline_trace = os.path.join(sdir, 'aa', 'run', 'old', 'old-01.json.gz')
        cands, skipped, tree = self.candidates(name, base, baseline_trace)
        log('%s: %d named functions in the baseline timeline located in the source '
            '(%d skipped)' % (name, len(cands), sum(len(v) for v in skipped.values())))
        if not cands:
            return {'error': 'no function of the baseline timeline found in the source'}

        # The probe: every candidate's calls, conditions and API calls counted.
        probe = os.path.join(sdir, 'builds', 'probe')
        clone_build(base, probe)
        ids, per_file = 0, {}
        for c in cands:
            c['probe'] = {'entry': ids}
            ids += 1
            ins = per_file.setdefault(c['file'], [])
            ins.append((c['entry'], 0, '__zc[%d]++;' % c['probe']['entry']))
            c['probe']['conditions'] = []
            for (s, e) in c['conditions']:
                c['probe']['conditions'].append(ids)
                ins.extend(jsedit.wrap_range(s, e, '(__zc[%d]++,(' % ids, '))'))
                ids += 1
            c['probe']['apis'] = []
            for api in c['apis']:
                c['probe']['apis'].append(ids)
                if api['kind'] == 'wrap':
                    ins.extend(jsedit.wrap_range(api['start'], api['end'],
                                                 '__zcw(%d,(' % ids, '))'))
                else:
                    ins.append((api['at'], 0, ',__zcw(%d,function(k,v){return v})' % ids))
                ids += 1
        for rel, ins in per_file.items():
            path = os.path.join(probe, rel)
            with open(path, encoding='utf-8') as f:
                text = f.read()
            with open(path, 'w', encoding='utf-8') as f:
                f.write(jsedit.apply_insertions(text, ins))
            if syntax_ok(os.path.join(base, rel)) and not syntax_ok(path):
                return {'error': 'the probe instrumentation broke %s' % rel}
        with open(os.path.join(probe, '__zameval_probe.js'), 'w') as f:
            f.write(PROBE_JS % ids)
        if not syntax_ok(os.path.join(probe, '__zameval_probe.js')):
            return {'error': 'the probe script does not parse (a bug in zameval.py)'}
        index = os.path.join(probe, 'index.html')
        with open(index, encoding='utf-8') as f:
            html = f.read()
        at = html.find('<script')
        html = html[:at] + '<script src="__zameval_probe.js"></script>\n  ' + html[at:]
        with open(index, 'w', encoding='utf-8') as f:
            f.write(html)

        log('%s: probe run (counts calls, condition checks and API calls)' % name)
        pout = os.path.join(sdir, 'probe')
        code = self.z.run(['record', scenario, '--url', probe, '--runs', '1', '--out', pout],
                          os.path.join(sdir, 'probe.log'), browser=True)
        ptrace = os.path.join(pout, 'traces', 'run-1.json.gz')
        if code != 0 or not os.path.isfile(ptrace):
            return {'error': 'probe run failed (exit %d, see %s/probe.log)' % (code, sdir)}
        marks = trace_marks(ptrace, '')
        counts_marks = [m[len('zameval:counts:'):] for m in marks
                        if m.startswith('zameval:counts:')]
        if len(counts_marks) < 2:
            return {'error': 'probe trace has no counts'}
        first = [float(x) for x in counts_marks[0].split(',')]
        last = [float(x) for x in counts_marks[-1].split(',')]
        # the counts right after the scenario's last step: what runs after
        # it (timers, background work) would keep a slowed page from settling
        at_end = last
        if 'zamcap:end' in marks:
            after = [m for m in marks[marks.index('zamcap:end'):]
                     if m.startswith('zameval:counts:')]
            if after:
                at_end = [float(x) for x in after[0][len('zameval:counts:'):].split(',')]
        self.tail = [b - a for a, b in zip(at_end, last)]

        def counts(i):
            return int(last[i] - first[i]), int(last[i])

        return self.choose(name, cands, counts, base, sdir, len(tree))

    def cost(self, per_eval_ms, traced, total):
        """Cost of one evaluation, capped so that the whole run gains at most
        --max-inject-ms; None when the traced part would gain less than
        --min-inject-ms."""
        if traced < 1:
            return None
        c = min(per_eval_ms, self.a.max_inject_ms / max(total, 1))
        if c * traced < self.a.min_inject_ms or c < 0.02:
            return None
        return c

    def choose(self, name, cands, counts, base, sdir, tree_nodes):
        rng = random.Random('%s:%s' % (self.a.seed, name))
        pools = {1: [], 2: [], 3: []}     # (candidate, [(kind, index, traced, total)])
        background = []
        for c in cands:
            calls, calls_all = counts(c['probe']['entry'])
            c['calls_traced'], c['calls_total'] = calls, calls_all
            c['calls_after_scenario'] = int(self.tail[c['probe']['entry']])
            if calls < 1:
                continue
            if c['calls_after_scenario'] > 0:
                background.append(c['function'])
                continue
            pools[2].append((c, [('entry', None, calls, calls_all)]))
            sites = []
            for k in range(len(c['apis'])):
                n, n_all = counts(c['probe']['apis'][k])
                if n >= 1:
                    sites.append(('api', k, n, n_all))
            if sites:
                pools[1].append((c, sites))
            if calls >= 2:
                sites = []
                for k in range(len(c['conditions'])):
                    n, n_all = counts(c['probe']['conditions'][k])
                    if n >= 1:
                        sites.append(('condition', k, n, n_all))
                if not c['conditions']:
                    sites.append(('wrap', None, calls, calls_all))
                if sites:
                    pools[3].append((c, sites))
        log('%s: pools: %d functions with callback API calls run, %d functions run, '
            '%d functions run more than once (%d left out: they run after the last step, '
            'in timers)' % (name, len(pools[1]), len(pools[2]), len(pools[3]),
                            len(background)))
        used, injections = set(), []
        for i in range(self.a.injections):
            t = TYPES[i % 3]
            made = None
            pool = [p for p in pools[t] if (p[0]['url'], p[0]['line'], p[0]['column'])
                    not in used]
            rng.shuffle(pool)
            for c, sites in pool:
                d = rng.uniform(100.0, 200.0)
                per = CHECK_MS if t == 3 else d
                options = [(s, self.cost(per, s[2], s[3])) for s in sites]
                options = [o for o in options if o[1] is not None]
                if not options:
                    continue
                site, cost = options[rng.randrange(len(options))]
                made = self.inject(name, i + 1, t, c, site, cost, base, sdir)
                if made:
                    used.add((c['url'], c['line'], c['column']))
                    break
            if made is None:
                log('%s: no function qualifies for injection type %d' % (name, t))
                continue
            injections.append(made)
        return {'subject': name, 'candidates': len(cands), 'timeline_nodes': tree_nodes,
                'left_out_background': background,
                'seed': self.a.seed, 'injections': injections,
                'probe_counts': {'%s %s:%d' % (c['function'], c['component'], c['line']):
                                 [c.get('calls_traced'), c.get('calls_total'),
                                  c.get('calls_after_scenario')] for c in cands}}

    def inject(self, name, k, t, c, site, cost, base, sdir):
        iid = 'inj-%d' % k
        build = os.path.join(sdir, 'builds', iid)
        clone_build(base, build)
        path = os.path.join(build, c['file'])
        with open(path, encoding='utf-8') as f:
            text = f.read()
        kind, idx, traced, total = site
        busy = busy_code(cost)
        if kind == 'entry':
            ins = [(c['entry'], 0, busy)]
            where = 'the start of the body'
        elif kind == 'wrap':
            ins = [(c['entry'], 0, 'if(!((()=>{%s;return true})()))return;' % busy)]
            where = 'a new `if` around the body'
        elif kind == 'condition':
            s, e = c['conditions'][idx]
            ins = jsedit.wrap_range(s, e, '((()=>{%s;return true})()&&(' % busy, '))')
            where = 'the condition `%s`' % text[s:e][:80]
        else:
            api = c['apis'][idx]
            wrapper = ('((__zf)=>{if(typeof __zf!=="function")return __zf;let __z1=true;'
                       'return function(){if(__z1){__z1=false;%s}'
                       'return __zf.apply(this,arguments)}})' % busy)
            if api['kind'] == 'wrap':
                ins = jsedit.wrap_range(api['start'], api['end'], wrapper + '(', ')')
                where = 'the callback of `%s` (%s)' % (api['api'], text[api['start']:api['end']][:60])
            else:
                ins = [(api['at'], 0, ',' + wrapper + '(function(k,v){return v})')]
                where = 'a new callback of `%s`' % api['api']
        new = jsedit.apply_insertions(text, ins)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(new)
        if syntax_ok(os.path.join(base, c['file'])) and not syntax_ok(path):
            log('%s: %s: the edit broke %s, trying another function' % (name, iid, c['file']))
            shutil.rmtree(build)
            return None
        line = text.count('\n', 0, ins[0][0]) + 1
        return {'id': iid, 'type': t, 'type_name': TYPE_NAMES[t], 'function': c['function'],
                'component': c['component'], 'line': c['line'], 'column': c['column'],
                'url': c['url'], 'file': c['file'], 'site': kind, 'where': where,
                'edit_line': line, 'cost_ms': round(cost, 4), 'count_traced': traced,
                'count_total': total, 'traced_ms': round(cost * traced, 1),
                'total_ms': round(cost * total, 1), 'calls_traced': c['calls_traced']}

    # -- everything --

    def run(self):
        os.makedirs(self.out, exist_ok=True)
        cfg = {k: v for k, v in vars(self.a).items() if k != 'reanalyze'}
        dump(os.path.join(self.out, 'config.json'), cfg)
        for name in self.a.subjects:
            t = time.time()
            r = self.subject(name)
            log('%s: done in %.0f s%s' % (name, time.time() - t,
                                          (': ' + r['error']) if 'error' in r else ''))
            if 'error' in r:
                dump(os.path.join(self.out, name, 'error.json'), r)


# ---------------------------------------------------------------- metrics --

def graph_leaves(graph):
    """The causes of a critical graph (report.json's critical_graph: a flat
    list of nodes, each with its parent's id, parents first) below the
    thread level: (node, path of (name, file) from the thread down). A
    node's "cause" flag says which: a leaf, or, where the call counts
    named a loop's owner or the entry of new code, the node above the
    leaf the time landed in (that leaf is then no cause). Reports without
    the flag: the leaves."""
    nodes = graph['nodes']
    paths, has_kids = [], set()
    for n in nodes:
        p = n['parent']
        if p is not None:
            has_kids.add(p)
        up = paths[p] if p is not None else ()
        paths.append(up if n['kind'] == 'root'
                     else up + ((n['name'], n.get('file') or ''),))
    flagged = any('cause' in n for n in nodes)
    return [(n, paths[n['id']]) for n in nodes
            if n['kind'] not in ('root', 'thread') and
            (n.get('cause') if flagged else n['id'] not in has_kids)]


def graph_nodes(graph):
    return sum(1 for n in graph['nodes'] if n['kind'] not in ('root', 'thread'))


def cause_paths(trees, inj):
    """Paths (tuples of (name, comp) from the thread down) to the injected
    function in the given timelines, with the function's total per tree."""
    paths, totals = set(), []
    for tree in trees:
        tot = 0.0
        for n in tree:
            if n['kind'] == 'fn' and n['name'] == inj['function'] and \
                    n['comp'] == inj['component'] and n['line'] == inj['line']:
                paths.add(n['path'])
                p, inside = n['parent'], False
                while p >= 0:
                    q = tree[p]
                    if q['name'] == n['name'] and q['comp'] == n['comp'] and q['line'] == n['line']:
                        inside = True
                        break
                    p = q['parent']
                if not inside:
                    tot += n['total']
        totals.append(tot)
    return paths, totals


def path_deltas(old_trees, new_trees, inj):
    """Per call path of the injected function: its mean time in the old and
    new timelines and the difference (what Algorithm 2 compares with mu),
    largest difference first."""
    def per_path(tree):
        d = {}
        for n in tree:
            if n['kind'] == 'fn' and n['name'] == inj['function'] and \
                    n['comp'] == inj['component'] and n['line'] == inj['line']:
                d[n['path']] = d.get(n['path'], 0.0) + n['total']
        return d
    olds = [per_path(t) for t in old_trees]
    news = [per_path(t) for t in new_trees]
    keys = set().union(*olds, *news) if olds or news else set()
    rows = []
    for k in keys:
        o = sum(x.get(k, 0.0) for x in olds) / max(len(olds), 1)
        n = sum(x.get(k, 0.0) for x in news) / max(len(news), 1)
        rows.append({'path': [p[0] for p in k], 'old_ms': round(o, 1), 'new_ms': round(n, 1),
                     'delta_ms': round(n - o, 1)})
    # Ties in path order: a set's order changes from run to run.
    rows.sort(key=lambda r: (-r['delta_ms'], r['path']))
    return rows


WRAP_END = 'return __zf.apply(this,arguments)}})'


def wrapper_cols(build_file, line):
    """The 1-based columns the injection's API wrapper spans on the edited
    line of the injected build's file, or None (no wrapper there)."""
    try:
        with open(build_file, encoding='utf-8') as f:
            text = f.read().split('\n')[line - 1]
    except (OSError, IndexError, UnicodeDecodeError):
        return None
    s = text.find('((__zf)=>')
    e = text.find(WRAP_END, s) if s >= 0 else -1
    return (s + 1, e + len(WRAP_END)) if e >= 0 else None


def classify(leaf, lpath, paths, inj):
    """hit: the leaf is the injected function; api: (injection 1) the native
    API frame right under it, or the injection's own wrapper of the API's
    callback there (a function at the edited line, which stands in for the
    slow API and did not exist before: V8 may name it after the call it is
    passed to); partial: the leaf lies on a path to it;
    below: the leaf is under it; false: none of these. With the distance
    (nodes from the leaf down to the injected function) and the length of
    the path (top-level function .. injected function)."""
    best = None
    for p in paths:
        n = len(p) - 1    # function nodes: the thread is p[0]
        if lpath == p and leaf.get('line') == inj['line']:
            return 'hit', 0, n
        if len(lpath) < len(p) and p[:len(lpath)] == lpath and len(lpath) >= 2:
            d = len(p) - len(lpath)
            if best is None or best[1] is None or d < best[1]:
                best = ('partial', d, n)
        if len(lpath) > len(p) and lpath[:len(p)] == p:
            wrap = inj.get('wrapper_cols')
            if inj['type'] == 1 and len(lpath) == len(p) + 1 and (
                    not (leaf.get('file') or '') or
                    (wrap and leaf.get('file') == inj['component'] and
                     leaf.get('line') == inj.get('edit_line') and
                     wrap[0] <= (leaf.get('column') or 0) <= wrap[1])):
                return 'api', 0, n
            if best is None:
                best = ('below', None, n)
    return best or ('false', None, None)


def analyse_report(report, paths, inj):
    graph = report['aggregate']['critical_graph']
    leaves = graph_leaves(graph)
    res = {'leaves': len(leaves), 'hit': 0, 'api': 0, 'partial': 0, 'below': 0, 'false': 0,
           'markers': 0, 'false_markers': 0, 'distances': [], 'longest': None,
           'graph_nodes': graph_nodes(graph), 'matcher': report.get('matcher', {}),
           'leaf_list': []}
    longest = None
    for leaf, lpath in leaves:
        marker = leaf['kind'] in ('program', 'gc', 'idle')
        res['markers'] += marker
        cls, dist, n = classify(leaf, lpath, paths, inj) if inj else ('false', None, None)
        res[cls] += 1
        if cls == 'false' and marker:
            res['false_markers'] += 1
        if cls in ('hit', 'api', 'partial'):
            res['distances'].append(dist)
            longest = n if longest is None else max(longest, n)
        res['leaf_list'].append({'class': cls, 'name': leaf['name'], 'file': leaf.get('file'),
                                 'line': leaf.get('line'), 'delta_ms': leaf.get('delta_ms'),
                                 'status': leaf.get('status'),
                                 'path': [p[0] for p in lpath]})
    res['longest'] = longest
    res['node_found'] = res['hit'] + res['api'] > 0
    res['path_found'] = res['hit'] + res['api'] + res['partial'] + res['below'] > 0
    # Every name the report gives: the graph's leaves and the spread-out
    # causes (a spread-out cause names a function, not a path: right when
    # it is the injected function).
    spread = report.get('spread_causes') or []
    res['spread'] = len(spread)
    res['spread_hits'] = sum(1 for c in spread if inj and c.get('name') == inj['function'] and
                             (c.get('file') or '') == inj['component'])
    res['names'] = res['leaves'] + res['spread']
    res['name_hits'] = res['hit'] + res['api'] + res['spread_hits']
    res['name_found'] = res['node_found'] or res['spread_hits'] > 0
    return res


def pct(a, b):
    return None if not b else 100.0 * a / b


def name_metrics(rows, aa_rows, aa_none=None):
    """Every name in the reports, the graph's leaves and the spread-out
    causes: how many, recall, precision, and the A/A runs' names (aa_none
    without A/A runs). Rows from before the count fall back to leaves."""
    names = sum(r.get('names', r['leaves']) for r in rows)
    return {
        'names': names,
        'name_recall': pct(sum(r.get('name_found', r['node_found']) for r in rows), len(rows)),
        'name_precision': pct(sum(r.get('name_hits', r['hit'] + r['api']) for r in rows), names),
        'aa_names': sum(a.get('names', a['leaves']) for a in aa_rows) if aa_rows else aa_none,
    }


def summarize(rows, aa_rows, tl_nodes):
    """Table 2's figures over a list of per-injection analyses (one N)."""
    s = {'outputs': len(rows)}
    s['node_recall'] = pct(sum(r['node_found'] for r in rows), len(rows))
    s['path_recall'] = pct(sum(r['path_found'] for r in rows), len(rows))
    leaves = sum(r['leaves'] for r in rows)
    good = sum(r['hit'] + r['api'] for r in rows)
    s['leaves'] = leaves
    s['node_precision'] = pct(good, leaves)
    s['path_precision'] = pct(good + sum(r['partial'] for r in rows), leaves)
    nm = leaves - sum(r['markers'] for r in rows)
    s['node_precision_no_markers'] = pct(good, nm)
    s['path_precision_no_markers'] = pct(good + sum(r['partial'] for r in rows), nm)
    d = [x for r in rows for x in r['distances']]
    s['avg_distance'] = sum(d) / len(d) if d else None
    lp = [r['longest'] for r in rows if r['longest'] is not None]
    s['avg_longest_path'] = sum(lp) / len(lp) if lp else None
    s['aa_paths'] = sum(a['leaves'] for a in aa_rows) if aa_rows else None
    s['aa_paths_no_markers'] = sum(a['leaves'] - a['markers'] for a in aa_rows) \
        if aa_rows else None
    s.update(name_metrics(rows, aa_rows))
    gn = sum(r['graph_nodes'] for r in rows)
    s['graph_nodes'] = gn
    s['timeline_nodes'] = tl_nodes * len(rows) if tl_nodes else None
    s['compression'] = pct(gn, tl_nodes * len(rows)) if tl_nodes and rows else None
    s['lcs'] = sum(r['matcher'].get('lcs', 0) for r in rows)
    s['alternate'] = sum(r['matcher'].get('alternate', 0) for r in rows)
    s['lcs_timeouts'] = sum(r['matcher'].get('lcs_timeouts', 0) for r in rows)
    for k in ('hit', 'api', 'partial', 'below', 'false', 'markers'):
        s[k] = sum(r[k] for r in rows)
    return s


def analyse(out, z, rq1_pairs):
    cfg = load(os.path.join(out, 'config.json'))
    subjects = [s for s in cfg['subjects'] if os.path.isdir(os.path.join(out, s))]
    result = {'config': cfg, 'subjects': {}, 'rq1_pairs': rq1_pairs}
    per_n = {}
    tree_cache = {}

    def tree(path):
        if path not in tree_cache:
            tree_cache[path] = z.tree(path)
        return tree_cache[path]

    for name in subjects:
        sdir = os.path.join(out, name)
        sres = {'injections': [], 'aa': {}}
        err = os.path.join(sdir, 'error.json')
        if os.path.isfile(err):
            sres['error'] = load(err).get('error')
        meta_path = os.path.join(sdir, 'injections.json')
        meta = load(meta_path) if os.path.isfile(meta_path) else {'injections': []}
        tl_nodes = None
        base_trace = os.path.join(sdir, 'aa', 'run', 'old', 'old-01.json.gz')
        if os.path.exists(base_trace):
            tl_nodes = sum(1 for n in tree(base_trace) if n['kind'] != 'thread')
        sres['timeline_nodes'] = tl_nodes
        for n in range(1, cfg['pairs'] + 1):
            rp = os.path.join(sdir, 'aa', 'cmp-%d' % n, 'report.json')
            if os.path.isfile(rp):
                sres['aa'][n] = analyse_report(load(rp), set(), None)
        for inj in meta.get('injections', []):
            idir = os.path.join(sdir, inj['id'])
            if inj.get('type') == 1 and inj.get('file') and inj.get('edit_line'):
                inj = dict(inj, wrapper_cols=wrapper_cols(
                    os.path.join(sdir, 'builds', inj['id'], inj['file']), inj['edit_line']))
            irec = dict(inj)
            irec['by_pairs'] = {}
            run = os.path.join(idir, 'run')
            if 'error' in inj.get('run', {}) or not os.path.isdir(os.path.join(run, 'new')):
                irec['error'] = inj.get('run', {}).get('error', 'not run')
                sres['injections'].append(irec)
                continue
            olds = sorted(f for f in os.listdir(os.path.join(run, 'old'))
                          if f.endswith('.json.gz'))
            news = sorted(f for f in os.listdir(os.path.join(run, 'new'))
                          if f.endswith('.json.gz'))
            new_trees = [tree(os.path.join(run, 'new', f)) for f in news]
            old_trees = [tree(os.path.join(run, 'old', f)) for f in olds]
            _, old_tot = cause_paths(old_trees, inj)
            all_paths, new_tot = cause_paths(new_trees, inj)
            irec['observed_delta_ms'] = [round(b - a, 1) for a, b in zip(old_tot, new_tot)]
            irec['path_deltas_ms'] = path_deltas(old_trees, new_trees, inj)
            irec['cause_depths'] = sorted({len(p) - 1 for p in all_paths})
            for k in range(1, len(news) + 1):
                rp = os.path.join(idir, 'cmp-%d' % k, 'report.json')
                if not os.path.isfile(rp):
                    continue
                paths, _ = cause_paths(new_trees[:k], inj)
                irec['by_pairs'][k] = analyse_report(load(rp), paths, inj)
            sres['injections'].append(irec)
        sres['by_pairs'] = {}
        for n in range(1, cfg['pairs'] + 1):
            rows = [i['by_pairs'][n] for i in sres['injections'] if n in i.get('by_pairs', {})]
            aa = [sres['aa'][n]] if n in sres['aa'] else []
            if rows or aa:
                sres['by_pairs'][n] = summarize(rows, aa, tl_nodes)
                per_n.setdefault(n, ([], [], []))
                per_n[n][0].extend(rows)
                per_n[n][1].extend(aa)
        result['subjects'][name] = sres
    result['all'] = {}
    for n, (rows, aa, _) in sorted(per_n.items()):
        s = summarize(rows, aa, None)
        # compression over all subjects: sums of each subject's parts
        gn = tn = 0
        for sres in result['subjects'].values():
            b = sres.get('by_pairs', {}).get(n)
            if b and b.get('timeline_nodes'):
                gn += b['graph_nodes']
                tn += b['timeline_nodes']
        s['compression'] = pct(gn, tn)
        s['timeline_nodes'] = tn
        s['aa_subjects_with_paths'] = sum(
            1 for sres in result['subjects'].values()
            if n in sres['aa'] and sres['aa'][n]['leaves'] > 0)
        s['aa_subjects'] = sum(1 for sres in result['subjects'].values() if n in sres['aa'])
        result['all'][n] = s
    return result


def recompare(out, z, mu):
    """`zamcap compare --pairs N` again, N = 1..pairs, on every stored run
    (OUT/NAME/*/run/{old,new}), into its cmp-N: a new zamcap binary
    rescored on the old traces, no browser."""
    for name in sorted(os.listdir(out)):
        sdir = os.path.join(out, name)
        if not os.path.isdir(sdir):
            continue
        for case in sorted(os.listdir(sdir)):
            run = os.path.join(sdir, case, 'run')
            if not os.path.isdir(os.path.join(run, 'new')):
                continue
            Experiment.split_traces(run)  # the count pairs' files too
            pairs = Experiment.pair_count(run)
            log('%s/%s: compare --pairs 1..%d with %s' % (name, case, pairs, z.binary))
            for n in range(1, pairs + 1):
                z.run(['compare', os.path.join(run, 'old'), os.path.join(run, 'new'),
                       '--pairs', str(n), '--mu', str(mu),
                       '--out', os.path.join(sdir, case, 'cmp-%d' % n), '-q'],
                      os.path.join(sdir, case, 'zamcap.log'))


def fmt(v, p=2):
    return '-' if v is None else ('%.*f' % (p, v))


def tables(result):
    n = result['rq1_pairs']
    lines = []
    lines.append('Table 2 (mu = %s ms, %d pairs aggregated)' % (result['config']['mu'], n))
    hdr = ('%-10s %4s %8s %8s %9s %9s %6s %7s %5s %8s' %
           ('subject', 'inj', 'node-rec', 'path-rec', 'node-prec', 'path-prec', 'dist',
            'longest', 'A/A', 'compress'))
    lines += [hdr, '-' * len(hdr)]
    for name, s in result['subjects'].items():
        b = s.get('by_pairs', {}).get(n)
        if not b:
            lines.append('%-10s %s' % (name, s.get('error', 'no results')))
            continue
        lines.append('%-10s %4d %8s %8s %9s %9s %6s %7s %5s %7s%%' % (
            name, b['outputs'], fmt(b['node_recall']), fmt(b['path_recall']),
            fmt(b['node_precision']), fmt(b['path_precision']), fmt(b['avg_distance']),
            fmt(b['avg_longest_path']), '-' if b['aa_paths'] is None else b['aa_paths'],
            fmt(b['compression'])))
    a = result['all'].get(n)
    if a:
        lines.append('-' * len(hdr))
        lines.append('%-10s %4d %8s %8s %9s %9s %6s %7s %5s %7s%%' % (
            'All', a['outputs'], fmt(a['node_recall']), fmt(a['path_recall']),
            fmt(a['node_precision']), fmt(a['path_precision']), fmt(a['avg_distance']),
            fmt(a['avg_longest_path']), '%d/%d' % (a['aa_subjects_with_paths'], a['aa_subjects']),
            fmt(a['compression'])))
        lines.append('paper:           86.67   100.00     41.16     96.09   2.92    8.57  2/10    2.34%')
        lines.append('leaves: %d (hit %d, api %d, partial %d, below %d, false %d; markers %d); '
                     'without marker leaves: node-prec %s, path-prec %s' % (
                         a['leaves'], a['hit'], a['api'], a['partial'], a['below'], a['false'],
                         a['markers'], fmt(a['node_precision_no_markers']),
                         fmt(a['path_precision_no_markers'])))
        lines.append('every name in the reports (graph leaves and spread-out causes): %d, '
                     'recall %s, precision %s; A/A names %s' % (
                         a['names'], fmt(a['name_recall']), fmt(a['name_precision']),
                         '-' if a['aa_names'] is None else a['aa_names']))
    lines.append('')
    lines.append('RQ2: all subjects by pairs aggregated')
    hdr = '%5s %4s %8s %8s %9s %9s %6s %10s %9s %6s' % (
        'pairs', 'inj', 'node-rec', 'path-rec', 'node-prec', 'path-prec', 'dist', 'A/A paths',
        'name-prec', 'A/A nm')
    lines += [hdr, '-' * len(hdr)]
    for k, a in sorted(result['all'].items(), key=lambda x: int(x[0])):
        lines.append('%5s %4d %8s %8s %9s %9s %6s %10s %9s %6s' % (
            k, a['outputs'], fmt(a['node_recall']), fmt(a['path_recall']),
            fmt(a['node_precision']), fmt(a['path_precision']), fmt(a['avg_distance']),
            '%s (%d/%d)' % (a['aa_paths'], a['aa_subjects_with_paths'], a['aa_subjects']),
            fmt(a['name_precision']), '-' if a['aa_names'] is None else a['aa_names']))
    a = result['all'].get(n)
    if a:
        tot = a['lcs'] + a['alternate']
        lines.append('')
        lines.append('RQ3: matcher usage over the %d-pair comparisons: LCS %d (%s%%), '
                     'alternate %d (%s%%), LCS budget exceeded %d; per run %s / %s' % (
                         n, a['lcs'], fmt(pct(a['lcs'], tot)), a['alternate'],
                         fmt(pct(a['alternate'], tot)), a['lcs_timeouts'],
                         fmt(a['lcs'] / max(a['outputs'], 1)),
                         fmt(a['alternate'] / max(a['outputs'], 1))))
        lines.append('RQ4: %d nodes in the critical graphs of %d timeline nodes: '
                     'compression %s%%' % (a['graph_nodes'], a['timeline_nodes'] or 0,
                                           fmt(a['compression'])))
    lines.append('')
    lines.append('Injections (%d pairs): result, observed slowdown of the function per pair' % n)
    for name, s in result['subjects'].items():
        for i in s['injections']:
            r = i.get('by_pairs', {}).get(n) if 'error' not in i else None
            if r is None:
                verdict = 'ERROR ' + i.get('error', '')
            else:
                verdict = ('NODE' if r['node_found'] else 'PATH' if r['path_found'] else 'MISS')
                verdict += ' leaves %d (hit %d api %d partial %d below %d false %d)' % (
                    r['leaves'], r['hit'], r['api'], r['partial'], r['below'], r['false'])
            lines.append('  %-9s %-6s t%d %-28s %s:%d  inj %.0f ms  obs %s  %s' % (
                name, i['id'], i['type'], i['function'][:28], i['component'], i['line'],
                i['traced_ms'], i.get('observed_delta_ms', '-'), verdict))
    return '\n'.join(lines)


# ---------------------------------------------------------------- main --

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--quick', action='store_true',
                    help='smoke run: subjects todo,markdown, 3 injections, 2 pairs')
    ap.add_argument('--subjects', help='comma-separated, default all: ' + ','.join(SUBJECTS))
    ap.add_argument('--injections', type=int, help='per subject (default 6; quick 3)')
    ap.add_argument('--pairs', type=int, help='pairs recorded per comparison (default 5; quick 2)')
    ap.add_argument('--rq1-pairs', type=int, default=3,
                    help="pairs aggregated for Table 2 (the paper's 3)")
    ap.add_argument('--mu', type=float, default=50.0)
    ap.add_argument('--seed', default='1')
    ap.add_argument('--max-inject-ms', type=float, default=1000.0,
                    help='cap on what one injection may add to a whole run, load included')
    ap.add_argument('--min-inject-ms', type=float, default=100.0,
                    help='least an injection must add to the traced part')
    ap.add_argument('--out', help='output folder (default tests/eval/out/<UTC time>)')
    ap.add_argument('--zamcap', default=os.path.join(ROOT, 'build-eval', 'zamcap'))
    ap.add_argument('--no-nice', action='store_true')
    ap.add_argument('--lock', metavar='FILE',
                    help='run each browser-launching zamcap command under flock FILE')
    ap.add_argument('--rerun', action='store_true',
                    help='redo runs whose results are in --out already')
    ap.add_argument('--reanalyze', metavar='DIR', help='only compute the metrics of DIR')
    ap.add_argument('--recompare', action='store_true',
                    help='with --reanalyze: first run --zamcap\'s compare on every stored '
                         'run again (cmp-N overwritten), so a new binary is scored')
    ap.add_argument('--real', nargs='?', const='all', metavar='NAMES',
                    help='the real regressions (tests/eval/real/), all or a,b: '
                         'no injection; old vs new and an A/A per regression')
    ap.add_argument('--heldout', nargs='?', const='all', metavar='NAMES',
                    help='as --real, but the regressions of tests/eval/heldout/')
    a = ap.parse_args()
    if a.heldout:
        import realeval
        realeval.use_heldout()
        a.real = a.heldout

    if a.reanalyze:
        out = a.reanalyze
        z = Zamcap(a.zamcap, False)
        cfg = load(os.path.join(out, 'config.json'))
        if a.recompare:
            recompare(out, z, cfg['mu'])
        if cfg.get('mode') == 'real':
            import realeval
            if cfg.get('heldout'):
                realeval.use_heldout(cfg.get('cases'))
            result = realeval.analyse(out, z)
            text = realeval.tables(result)
        else:
            result = analyse(out, z, min(a.rq1_pairs, cfg['pairs']))
            text = tables(result)
        dump(os.path.join(out, 'results.json'), result)
        with open(os.path.join(out, 'table.txt'), 'w') as f:
            f.write(text + '\n')
        print(text)
        return 0

    if a.real:
        return main_real(ap, a)
    if a.subjects:
        a.subjects = [s.strip() for s in a.subjects.split(',') if s.strip()]
    else:
        a.subjects = ['todo', 'markdown'] if a.quick else list(SUBJECTS)
    bad = [s for s in a.subjects if s not in SUBJECTS]
    if bad:
        ap.error('unknown subject(s) %s; known: %s' % (','.join(bad), ','.join(SUBJECTS)))
    if a.injections is None:
        a.injections = 3 if a.quick else 6
    if a.pairs is None:
        a.pairs = 2 if a.quick else 5
    if not a.out:
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y%m%dT%H%M%SZ')
        a.out = os.path.join(HERE, 'out', stamp)
    a.out = os.path.abspath(a.out)
    if not os.access(a.zamcap, os.X_OK):
        ap.error('no zamcap at %s (build it: cmake -S . -B build-eval -G Ninja && '
                 'cmake --build build-eval)' % a.zamcap)
    log('out: %s; subjects: %s; %d injections each, %d pairs, seed %s' % (
        a.out, ','.join(a.subjects), a.injections, a.pairs, a.seed))
    Experiment(a).run()
    log('metrics')
    result = analyse(a.out, Zamcap(a.zamcap, False), min(a.rq1_pairs, a.pairs))
    dump(os.path.join(a.out, 'results.json'), result)
    text = tables(result)
    with open(os.path.join(a.out, 'table.txt'), 'w') as f:
        f.write(text + '\n')
    print(text)
    log('results in %s/results.json and table.txt (%.0f s)' % (a.out, time.time() - T0))
    return 0


def main_real(ap, a):
    import realeval
    known = realeval.names()
    a.subjects = known if a.real == 'all' else [x.strip() for x in a.real.split(',') if x.strip()]
    bad = [x for x in a.subjects if x not in known]
    if bad:
        ap.error('unknown real regression(s) %s; known: %s' % (','.join(bad), ','.join(known)))
    if a.pairs is None:
        a.pairs = 2 if a.quick else 5
    if not a.out:
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y%m%dT%H%M%SZ')
        a.out = os.path.join(HERE, 'out', stamp + '-real')
    a.out = os.path.abspath(a.out)
    if not os.access(a.zamcap, os.X_OK):
        ap.error('no zamcap at %s' % a.zamcap)
    log('out: %s; real regressions: %s; %d pairs' % (a.out, ','.join(a.subjects), a.pairs))
    realeval.RealExperiment(a).run()
    log('metrics')
    result = realeval.analyse(a.out, Zamcap(a.zamcap, False))
    dump(os.path.join(a.out, 'results.json'), result)
    text = realeval.tables(result)
    with open(os.path.join(a.out, 'table.txt'), 'w') as f:
        f.write(text + '\n')
    print(text)
    log('results in %s/results.json and table.txt (%.0f s)' % (a.out, time.time() - T0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
