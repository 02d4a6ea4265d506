"""Plain against race, with and without the uniqueness proof, per puzzle (issue 17's janko table).

    python benchmarks/race_table.py benchmarks/results/janko-race.csv [PUZZLE]

From a `fillsmt bench` CSV with the four configurations of run_issue17.sh: solved, proven
unique, median/mean/slowest total, how many at or over 0.5 s, the time of PUZZLE (default 286),
then per configuration pair the proof-to-plain ratios and which puzzles the rules' search answered.
"""
import csv, statistics, sys
SHOW = sys.argv[2] if len(sys.argv) > 2 else '286'
rows=list(csv.DictReader(open(sys.argv[1])))
by={}
for r in rows:
    by.setdefault(r['puzzle'].rsplit('/',1)[-1],{})[r['key'].rsplit('|',1)[1]]=r
C=['yices/tree-bfs/on','yices/tree-bfs/race','yices/tree-bfs/on/unique','yices/tree-bfs/race/unique']
print(f'| configuration | solved | proven unique | median (s) | mean (s) | slowest (s) | at or over 0.5 s | {SHOW} (s) |')
print('|---|---:|---:|---:|---:|---:|---:|---:|')
for c in C:
    t=[float(by[p][c]['total_s']) for p in by]
    ok=sum(1 for p in by if by[p][c]['status']=='sat' and by[p][c]['checked'] in ('True','true'))
    un=sum(1 for p in by if by[p][c]['unique'] in ('True','true'))
    s=sorted(((float(by[p][c]['total_s']),p[:-4]) for p in by))
    print(f"| {c} | {ok}/100 | {un if 'unique' in c else '–'} | {statistics.median(t):.3f} | {statistics.mean(t):.3f} | {s[-1][0]:.2f} ({s[-1][1]}) | {sum(1 for x in t if x>=0.5)} | {float(by[SHOW + '.txt'][c]['total_s']):.2f} |")
print()
for base,uni in ((C[0],C[2]),(C[1],C[3])):
    ratios={p: float(by[p][uni]['total_s'])/float(by[p][base]['total_s']) for p in by}
    over=sorted((p[:-4],round(v,2)) for p,v in ratios.items() if v>=2)
    print(f"- {uni} / {base}: median ratio {statistics.median(ratios.values()):.2f}, {sum(1 for v in ratios.values() if v<2)} of 100 under 2x; at or over: {over}")
won=[p[:-4] for p in by if 'rules\' search' in by[p]['yices/tree-bfs/race']['message']]
wonu=[p[:-4] for p in by if 'rules\' search' in by[p]['yices/tree-bfs/race/unique']['message']]
print(f"- answered first by the rules' search: plain {len(won)} {won}; with the proof {len(wonu)} {wonu}")
