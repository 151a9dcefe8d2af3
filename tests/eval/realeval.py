"""The real-regression mode of the accuracy experiment (zameval.py --real):
performance regressions from popular libraries' histories, each in
tests/eval/real/NAME/ (a page, a Recorder scenario, the library's old and
new npm version, the ground truth from the fix). See tests/eval/README.md,
"Real regressions".

Per regression: builds OLD and NEW (the page with each version's
libraries) and a copy of OLD; runs `zamcap SCENARIO --old OLD --new NEW
--pairs P` and the A/A `--old OLD --new OLD-COPY`, then `compare --pairs N`
for N = 1..P on each; scores every leaf of the aggregated critical graph
against the truth functions.
"""

import os
import shutil
import subprocess

import zameval as ze

REAL = os.path.join(ze.HERE, 'real')


def use_heldout(where=None):
    """--heldout: the regressions of tests/eval/heldout/ (same format and
    scoring), kept apart from the ones the analysis rules were drawn from.
    $ZC_HELDOUT names another folder of the same form: a held-out half
    kept outside the tree until its cases are scored."""
    global REAL
    REAL = where or os.environ.get('ZC_HELDOUT') or os.path.join(ze.HERE, 'heldout')
NOT_SERVED = ze.NOT_SERVED | {'truth.json', 'NOTE.md', 'old.libs.txt', 'new.libs.txt'}


def names():
    if not os.path.isdir(REAL):
        return []
    return sorted(n for n in os.listdir(REAL)
                  if os.path.isfile(os.path.join(REAL, n, 'truth.json')))


# ---------------------------------------------------------------- runs --

def make_build(rdir, side, dst):
    """The page (every file of the regression's folder but its metadata)
    plus the libraries of SIDE.libs.txt."""
    if os.path.exists(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    for entry in os.listdir(rdir):
        if entry in NOT_SERVED:
            continue
        s, d = os.path.join(rdir, entry), os.path.join(dst, entry)
        (shutil.copytree if os.path.isdir(s) else shutil.copy2)(s, d)
    subprocess.run([os.path.join(ze.HERE, 'fetch-libs.sh'), '--copy',
                    os.path.join(rdir, side + '.libs.txt'), dst], check=True)


class RealExperiment(ze.Experiment):
    def regression(self, name):
        rdir = os.path.join(REAL, name)
        sdir = os.path.join(self.out, name)
        builds = os.path.join(sdir, 'builds')
        os.makedirs(builds, exist_ok=True)
        shutil.copy2(os.path.join(rdir, 'truth.json'), os.path.join(sdir, 'truth.json'))
        old, new, copy = (os.path.join(builds, b) for b in ('old', 'new', 'old-copy'))
        for side, dst in (('old', old), ('new', new)):
            if not os.path.isdir(dst) or self.a.rerun:
                make_build(rdir, side, dst)
        if not os.path.isdir(copy) or self.a.rerun:
            ze.clone_build(old, copy)
        scenario = os.path.join(rdir, 'scenario.json')
        ze.log('%s: old vs new, %d pairs' % (name, self.a.pairs))
        r = self.run_pairs(name, scenario, old, new, os.path.join(sdir, 'regression'))
        ze.log('%s: A/A, %d pairs' % (name, self.a.pairs))
        a = self.run_pairs(name, scenario, old, copy, os.path.join(sdir, 'aa'))
        ze.dump(os.path.join(sdir, 'runs.json'), {'regression': r, 'aa': a})
        return r if 'error' in r else a

    def run(self):
        os.makedirs(self.out, exist_ok=True)
        cfg = {k: v for k, v in vars(self.a).items() if k != 'reanalyze'}
        cfg['mode'] = 'real'
        cfg['heldout'] = REAL != os.path.join(ze.HERE, 'real')
        cfg['cases'] = REAL
        ze.dump(os.path.join(self.out, 'config.json'), cfg)
        for name in self.a.subjects:
            r = self.regression(name)
            if 'error' in r:
                ze.log('%s: %s' % (name, r['error']))


# ---------------------------------------------------------------- truth --

def load_truth(out, name):
    """The regression's truth.json: the one in tests/eval/real/NAME (a
    corrected truth rescored on old traces), else the copy kept in OUT."""
    for d in (os.path.join(REAL, name), os.path.join(out, name)):
        p = os.path.join(d, 'truth.json')
        if os.path.isfile(p):
            return ze.load(p)
    return None


def truth_keys(truth):
    return {(f['function'], f['file']) for f in truth['truth']}


def truth_lines(truth):
    """(function, file) -> the lines a truth entry gives (its optional
    "line", 1-based as zamcap reports it): where a file has several
    functions of the truth's name, only the one at that line is a hit."""
    d = {}
    for f in truth['truth']:
        if f.get('line') is not None:
            d.setdefault((f['function'], f['file']), set()).add(int(f['line']))
    return d


def is_truth(name, file, line, keys, lines):
    k = (name, file or '')
    return k in keys and (k not in (lines or {}) or line in lines[k])


def truth_paths(trees, keys, lines=None):
    """Call paths (tuples of (name, comp) from the thread down) to every
    node of a truth function in the given pruned timelines (at the truth's
    line, where it gives one: a file's anonymous functions share a key)."""
    paths = set()
    for tree in trees:
        for n in tree:
            if n['kind'] == 'fn' and is_truth(n['name'], n['comp'], n['line'], keys, lines):
                paths.add(n['path'])
    return paths


def self_by_function(tree):
    """Bottom-up: self time per (name, comp), summed over all call paths."""
    d = {}
    for n in tree:
        if n['kind'] == 'thread':
            continue
        k = (n['name'], n['comp'])
        d[k] = d.get(k, 0.0) + n['self']
    return d


def total_by_function(tree, keys):
    """Total time of the truth functions, recursion counted once (a node
    under a node of the same function is not added again)."""
    tot = 0.0
    for n in tree:
        if n['kind'] != 'fn' or (n['name'], n['comp']) not in keys:
            continue
        p, inside = n['parent'], False
        while p >= 0:
            if (tree[p]['name'], tree[p]['comp']) in keys:
                inside = True
                break
            p = tree[p]['parent']
        if not inside:
            tot += n['total']
    return tot


# ---------------------------------------------------------------- scoring --

def classify(leaf, lpath, paths, keys, lines=None):
    """hit: the leaf is a truth function (on any call path: a cause on the
    truth's own node counts right); api: a frame without a file (a
    built-in, a RegExp) right under a truth node, the time the truth
    function spends in it, counted as a hit as in the injection mode;
    partial: the leaf is a caller on a call path to a truth node (the path
    is found, the node is not: wrong for node precision, right for path
    precision); below: the leaf is under a truth node (a callee that does
    more work because of the change above it; also a node inside a
    recursive truth function's recursion); false: none of these."""
    if is_truth(leaf['name'], leaf.get('file'), leaf.get('line'), keys, lines):
        return 'hit', 0
    below = partial = None
    for p in paths:
        if len(lpath) == len(p) + 1 and lpath[:len(p)] == p and not (leaf.get('file') or ''):
            return 'api', 0
        if len(lpath) > len(p) and lpath[:len(p)] == p:
            below = ('below', None)
        elif 2 <= len(lpath) < len(p) and p[:len(lpath)] == lpath:
            d = len(p) - len(lpath)
            if partial is None or d < partial[1]:
                partial = ('partial', d)
    # Inside a recursive truth function (under one of its nodes, above
    # another) is under it: below wins over partial.
    return below or partial or ('false', None)


def score_report(report, paths, keys, lines=None):
    graph = report['aggregate']['critical_graph']
    leaves = ze.graph_leaves(graph)
    bu = {}
    for row in (report.get('bottom_up') or {}).get('rows', []):
        k = (row['name'], row.get('file') or '')
        bu[k] = bu.get(k, 0.0) + (row.get('delta_ms') or 0.0)
    res = {'leaves': len(leaves), 'hit': 0, 'api': 0, 'partial': 0, 'below': 0,
           'false': 0, 'markers': 0, 'distances': [], 'leaf_list': [], 'spread': [],
           'not_significant': report['aggregate'].get('not_significant'),
           'graph_nodes': ze.graph_nodes(graph)}
    # Where a cause's time landed, when the call counts named its loop's
    # owner or a root upstream in its place (report.json's "landed"): the
    # report names that function on the cause's row, beside the cause.
    # So is the function a loop's owner calls more often ("calls_more"),
    # where that is not where the time landed.
    causes = {tuple(c['path']): c for c in report.get('regression_causes') or []
              if c.get('path')}
    res['landed'] = 0
    # Roots alone: a cause the report ranks after a root as its
    # consequence (report.json "role") claims no cause of its own.
    res['roots'] = res['root_hits'] = 0
    # What the person reading the report meets first: the cause it ranks 1.
    ranked = sorted((c for c in causes.values() if c.get('rank')), key=lambda c: c['rank'])
    first = tuple(ranked[0]['path']) if ranked else None
    res['first_hit'] = False
    for leaf, lpath in leaves:
        res['markers'] += leaf['kind'] in ('program', 'gc', 'idle')
        cls, dist = classify(leaf, lpath, paths, keys, lines)
        res[cls] += 1
        path = tuple(x[0] for x in lpath)
        cause = causes.get(path) or {}
        ld = [x for x in (cause.get('landed'), cause.get('calls_more')) if x]
        if cls in ('hit', 'api') or any(is_truth(x['name'], x.get('file'), None, keys, lines)
                                        for x in ld):
            res['landed'] += 1
        if first is not None and path == first:
            res['first_hit'] = cls in ('hit', 'api')
        if cause.get('role') != 'consequence':
            res['roots'] += 1
            res['root_hits'] += cls in ('hit', 'api')
        if dist is not None:
            res['distances'].append(dist)
        res['leaf_list'].append({
            'class': cls, 'distance': dist, 'name': leaf['name'], 'file': leaf.get('file'),
            'line': leaf.get('line'), 'kind': leaf['kind'], 'status': leaf.get('status'),
            'delta_ms': leaf.get('delta_ms'),
            'delta_ms_per_pair': [q.get('delta_ms') for q in leaf.get('pairs') or []],
            'self_delta_all_paths_ms': bu.get((leaf['name'], leaf.get('file') or '')),
            'path': list(path)})
    for c in report.get('spread_causes') or []:
        res['spread'].append({
            'truth': is_truth(c['name'], c.get('file'), c.get('line'), keys, lines),
            'name': c['name'],
            'file': c.get('file'), 'line': c.get('line'), 'delta_ms': c.get('delta_ms'),
            'delta_ms_per_pair': c.get('delta_ms_per_pair'), 'call_paths': c.get('call_paths')})
    res['node_found'] = res['hit'] + res['api'] > 0
    res['landed_found'] = res['landed'] > 0
    res['path_found'] = res['hit'] + res['api'] + res['partial'] + res['below'] > 0
    res['spread_found'] = any(x['truth'] for x in res['spread'])
    # Every name the report gives, the graph's leaves and the spread-out
    # causes: what a reader of the report is asked to trust.
    res['names'] = res['leaves'] + len(res['spread'])
    res['name_hits'] = res['hit'] + res['api'] + sum(x['truth'] for x in res['spread'])
    res['name_found'] = res['node_found'] or res['spread_found']
    return res


def summarize(rows, aa_rows):
    s = {'regressions': len(rows)}
    s['node_recall'] = ze.pct(sum(r['node_found'] for r in rows), len(rows))
    s['path_recall'] = ze.pct(sum(r['path_found'] for r in rows), len(rows))
    leaves = sum(r['leaves'] for r in rows)
    good = sum(r['hit'] + r['api'] for r in rows)
    s['leaves'] = leaves
    s['node_precision'] = ze.pct(good, leaves)
    s['path_precision'] = ze.pct(good + sum(r['partial'] for r in rows), leaves)
    for k in ('hit', 'api', 'partial', 'below', 'false', 'markers'):
        s[k] = sum(r[k] for r in rows)
    # the same, counting a cause right where the function its time landed
    # in is the truth (a loop's owner named for the per-element callee)
    s['landed_recall'] = ze.pct(sum(r.get('landed_found', r['node_found']) for r in rows),
                                len(rows))
    s['landed_precision'] = ze.pct(sum(r.get('landed', r['hit'] + r['api']) for r in rows),
                                   leaves)
    roots = sum(r.get('roots', r['leaves']) for r in rows)
    s['roots'] = roots
    s['roots_recall'] = ze.pct(sum(r.get('root_hits', r['hit'] + r['api']) > 0 for r in rows),
                               len(rows))
    s['roots_precision'] = ze.pct(sum(r.get('root_hits', r['hit'] + r['api']) for r in rows),
                                  roots)
    s['first_recall'] = ze.pct(sum(r.get('first_hit', False) for r in rows), len(rows))
    s.update(ze.name_metrics(rows, aa_rows, 0))
    s['aa_paths'] = sum(a['leaves'] for a in aa_rows)
    s['aa_with_paths'] = sum(1 for a in aa_rows if a['leaves'] > 0)
    s['aa_runs'] = len(aa_rows)
    return s


def analyse(out, z):
    cfg = ze.load(os.path.join(out, 'config.json'))
    result = {'config': cfg, 'mode': 'real', 'regressions': {}, 'all': {}}
    per_n = {}
    for name in cfg['subjects']:
        sdir = os.path.join(out, name)
        truth = load_truth(out, name)
        if truth is None or not os.path.isdir(sdir):
            continue
        keys = truth_keys(truth)
        rres = {'truth': truth, 'by_pairs': {}, 'aa': {}}
        runs = os.path.join(sdir, 'runs.json')
        if os.path.isfile(runs):
            for k, v in ze.load(runs).items():
                if 'error' in v:
                    rres.setdefault('errors', {})[k] = v['error']
        run = os.path.join(sdir, 'regression', 'run')
        if os.path.isdir(os.path.join(run, 'new')):
            olds = sorted(f for f in os.listdir(os.path.join(run, 'old'))
                          if f.endswith('.json.gz'))
            news = sorted(f for f in os.listdir(os.path.join(run, 'new'))
                          if f.endswith('.json.gz'))
            old_trees = [z.tree(os.path.join(run, 'old', f)) for f in olds]
            new_trees = [z.tree(os.path.join(run, 'new', f)) for f in news]
            # What the truth functions did, per pair: total (recursion once)
            # and self time summed over all their call paths.
            rres['truth_total_delta_ms'] = [
                round(total_by_function(n, keys) - total_by_function(o, keys), 1)
                for o, n in zip(old_trees, new_trees)]
            rres['truth_self_delta_ms'] = [
                round(sum(v for k, v in self_by_function(n).items() if k in keys) -
                      sum(v for k, v in self_by_function(o).items() if k in keys), 1)
                for o, n in zip(old_trees, new_trees)]
            lines = truth_lines(truth)
            rres['truth_depths'] = sorted({len(p) - 1 for p in truth_paths(new_trees, keys, lines)})
            for k in range(1, len(news) + 1):
                rp = os.path.join(sdir, 'regression', 'cmp-%d' % k, 'report.json')
                if os.path.isfile(rp):
                    rres['by_pairs'][k] = score_report(
                        ze.load(rp), truth_paths(new_trees[:k], keys, lines), keys, lines)
        for k in range(1, cfg['pairs'] + 1):
            rp = os.path.join(sdir, 'aa', 'cmp-%d' % k, 'report.json')
            if os.path.isfile(rp):
                rres['aa'][k] = score_report(ze.load(rp), set(), set())
        for k in range(1, cfg['pairs'] + 1):
            per_n.setdefault(k, ([], []))
            if k in rres['by_pairs']:
                per_n[k][0].append(rres['by_pairs'][k])
            if k in rres['aa']:
                per_n[k][1].append(rres['aa'][k])
        result['regressions'][name] = rres
    for k, (rows, aa) in sorted(per_n.items()):
        if rows or aa:
            result['all'][k] = summarize(rows, aa)
    return result


def tables(result):
    f = ze.fmt
    cfg = result['config']
    n = cfg['pairs']
    lines = ['Real regressions (mu = %s ms, %d pairs aggregated)' % (cfg['mu'], n)]
    hdr = '%-20s %-9s %8s %8s %9s %9s %6s %6s' % (
        'regression', 'found', 'leaves', 'node-rec', 'node-prec', 'path-prec', 'A/A', 'spread')
    lines += [hdr, '-' * len(hdr)]
    for name, r in result['regressions'].items():
        b = r['by_pairs'].get(n)
        aa = r['aa'].get(n)
        if not b:
            lines.append('%-20s %s' % (name, r.get('errors', 'no results')))
            continue
        s = summarize([b], [aa] if aa else [])
        lines.append('%-20s %-9s %8d %8s %9s %9s %6s %6s' % (
            name, 'NODE' if b['node_found'] else 'PATH' if b['path_found'] else 'MISS',
            b['leaves'], f(s['node_recall'], 0), f(s['node_precision'], 1),
            f(s['path_precision'], 1), '-' if not aa else aa['leaves'],
            'yes' if b['spread_found'] else 'no'))
    a = result['all'].get(n)
    if a:
        lines.append('-' * len(hdr))
        lines.append('All: node recall %s, path recall %s, node precision %s, path precision %s '
                     '(%d leaves: hit %d, api %d, partial %d, below %d, false %d; markers %d); '
                     'A/A: %d paths, %d of %d regressions' % (
                         f(a['node_recall'], 1), f(a['path_recall'], 1), f(a['node_precision'], 1),
                         f(a['path_precision'], 1), a['leaves'], a['hit'], a['api'], a['partial'],
                         a['below'], a['false'], a['markers'], a['aa_paths'], a['aa_with_paths'],
                         a['aa_runs']))
        lines.append('Counting a cause right where its time landed in the truth, or '
                     'its loop\'s callee is (report.json "landed", "calls_more"): '
                     'node recall %s, node precision %s' % (
                         f(a['landed_recall'], 1), f(a['landed_precision'], 1)))
        lines.append('Counting roots only (a cause ranked after a root as its consequence, '
                     'report.json "role", claims no cause of its own): %d roots, '
                     'node recall %s, node precision %s' % (
                         a['roots'], f(a['roots_recall'], 1), f(a['roots_precision'], 1)))
        lines.append('The cause each report ranks first is the truth: %s of the regressions' %
                     f(a['first_recall'], 1))
        lines.append('Every name in the reports (graph leaves and spread-out causes): %d names, '
                     'recall %s, precision %s; A/A: %d names' % (
                         a['names'], f(a['name_recall'], 1), f(a['name_precision'], 1),
                         a['aa_names']))
    lines += ['', 'By pairs aggregated (all regressions)']
    hdr = '%5s %8s %8s %9s %9s %7s %9s %8s %9s %7s' % (
        'pairs', 'node-rec', 'path-rec', 'node-prec', 'path-prec', 'leaves', 'A/A paths',
        'name-rec', 'name-prec', 'A/A nm')
    lines += [hdr, '-' * len(hdr)]
    for k, a in sorted(result['all'].items(), key=lambda x: int(x[0])):
        lines.append('%5s %8s %8s %9s %9s %7d %9s %8s %9s %7d' % (
            k, f(a['node_recall'], 1), f(a['path_recall'], 1), f(a['node_precision'], 1),
            f(a['path_precision'], 1), a['leaves'],
            '%d (%d/%d)' % (a['aa_paths'], a['aa_with_paths'], a['aa_runs']),
            f(a['name_recall'], 1), f(a['name_precision'], 1), a['aa_names']))
    lines += ['', 'What zamcap names (%d pairs); self = self time of that function summed over '
              'all its call paths, new - old, mean per pair (the bottom-up view)' % n]
    for name, r in result['regressions'].items():
        t = r['truth']
        lines.append('%s: %s -> %s; truth %s; truth total/self delta per pair %s / %s' % (
            name, t['old'], t['new'],
            ', '.join('%s (%s)' % (x['function'], x['file']) for x in t['truth']),
            r.get('truth_total_delta_ms', '-'), r.get('truth_self_delta_ms', '-')))
        b = r['by_pairs'].get(n)
        if not b:
            continue
        for lf in sorted(b['leaf_list'], key=lambda x: -(x['delta_ms'] or 0)):
            lines.append('  %-7s %+7.1f ms %-40s %s:%s  pairs %s  self %s%s' % (
                lf['class'], lf['delta_ms'] or 0, lf['name'][:40], lf['file'] or '-',
                lf['line'] if lf['line'] is not None else '-',
                ' '.join('%+.0f' % x if x is not None else '-' for x in lf['delta_ms_per_pair']),
                '-' if lf['self_delta_all_paths_ms'] is None
                else '%+.1f' % lf['self_delta_all_paths_ms'],
                '  [%s]' % lf['status'] if lf['status'] else ''))
            lines.append('          ' + ' > '.join(lf['path']))
        for sp in b['spread']:
            lines.append('  spread  %+7.1f ms %-40s %s:%s  over %s paths%s' % (
                sp['delta_ms'] or 0, sp['name'][:40], sp['file'], sp['line'],
                sp['call_paths'], '  (truth)' if sp['truth'] else ''))
        if b.get('not_significant'):
            lines.append('  (%s not significant)' % b['not_significant'])
        aa = r['aa'].get(n)
        if aa and aa['leaf_list']:
            for lf in aa['leaf_list']:
                lines.append('  A/A     %+7.1f ms %s %s' % (lf['delta_ms'] or 0, lf['name'],
                                                         ' > '.join(lf['path'])))
    return '\n'.join(lines)
