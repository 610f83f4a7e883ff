#!/usr/bin/env python3
"""Compares two ivsbench results folders (a run or an experiment): everything that does not depend on timing
must be equal. Used to show that a change of the code changed no behaviour:

    python3 scripts/compare-results.py results/OLD results/NEW

Compared: the file list; every summary.json / experiment.json leaf that is not a time, rate, latency or
digest; per phase x type outcome counts summed over samples.csv; every non-timing column of the other CSVs
(epochs.csv, value_sizes.csv). Not compared: monitor.csv, latency.hlog, environment.json (timings and host
state). A warmup by time makes the measured operations' keys depend on timing (how many warmup operations
ran), so bytes read then differ between two runs of the same jar too: compare configs without warmup.
Exit status 1 when anything differs."""
import csv, json, sys, pathlib, re, collections

a, b = map(pathlib.Path, sys.argv[1:3])
problems, checked = [], collections.Counter()
TIMING = re.compile(r'(ms|Ms|_us$|Us$|throughput|goodput|Seconds|lat_|started|updated|warmupOperations|stddev|startLag'
                    r'|commandLine|configDigest|toolVersion|version)')

def files(root):
    return sorted(p.relative_to(root) for p in root.rglob('*') if p.is_file())

fa, fb = files(a), files(b)
if fa != fb:
    problems.append(f'file lists differ: only in a {sorted(set(fa)-set(fb))}, only in b {sorted(set(fb)-set(fa))}')

def leaves(node, path=''):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, f'{path}/{k}')
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, f'{path}[{i}]')
    else:
        yield path, node

def timing_path(p):
    return any(TIMING.search(seg) for seg in p.split('/') if seg) and not re.search(r'/counts/|/bytes', p)

for rel in sorted(set(fa) & set(fb)):
    pa, pb = a / rel, b / rel
    name = rel.name
    if name in ('monitor.csv', 'latency.hlog', 'environment.json'):
        continue  # timings and host state only
    if name.endswith('.json'):
        ja, jb = json.loads(pa.read_text()), json.loads(pb.read_text())
        la = {p: v for p, v in leaves(ja) if not timing_path(p)}
        lb = {p: v for p, v in leaves(jb) if not timing_path(p)}
        if la.keys() != lb.keys():
            problems.append(f'{rel}: keys differ: {sorted(set(la) ^ set(lb))[:10]}')
        for k in la.keys() & lb.keys():
            if la[k] != lb[k]:
                problems.append(f'{rel}{k}: {la[k]!r} != {lb[k]!r}')
        checked['json'] += 1
    elif name == 'samples.csv':
        def sums(p):
            s = collections.Counter()
            with open(p) as f:
                r = csv.DictReader(f)
                header = r.fieldnames
                for row in r:
                    for c in ('ok', 'skipped', 'aborted', 'error', 'missed'):
                        s[(row['phase'], row['type'], c)] += int(row[c])
            return header, s
        ha, sa = sums(pa); hb, sb = sums(pb)
        if ha != hb: problems.append(f'{rel}: header differs')
        if sa != sb: problems.append(f'{rel}: per-type counts differ')
        checked['samples'] += 1
    elif name.endswith('.csv'):
        with open(pa) as f: ra = list(csv.DictReader(f))
        with open(pb) as f: rb = list(csv.DictReader(f))
        if not ra or not rb or list(ra[0]) != list(rb[0]):
            problems.append(f'{rel}: header differs'); continue
        cols = [c for c in ra[0] if not TIMING.search(c)]
        if len(ra) != len(rb): problems.append(f'{rel}: {len(ra)} rows != {len(rb)}')
        for i, (x, y) in enumerate(zip(ra, rb)):
            for c in cols:
                if x[c] != y[c]:
                    problems.append(f'{rel} row {i+1} {c}: {x[c]} != {y[c]}')
        checked['csv'] += 1
    elif name == 'config.xml':
        if pa.read_text() != pb.read_text(): problems.append(f'{rel}: differs (expected if the config changed)')
print(f'compared {len(fa)} files: {dict(checked)}')
for p in problems: print('DIFF', p)
print('identical apart from timings' if not problems else f'{len(problems)} differences')
sys.exit(1 if problems else 0)
