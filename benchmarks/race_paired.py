"""The race against the plain pipeline, interleaved per puzzle in one process (issue 17).

    python benchmarks/race_paired.py

Each janko-thesis100 puzzle solved once with presolve level ``on`` and once with ``race`` (order
alternating by puzzle), one at a time, yices, every grid checked: per-puzzle ratios on the same
machine state, which a 2-job bench mixes with the other job's load.
"""
import time, statistics, glob, sys
from fillsmt.drivers import get_driver
from fillsmt.pipeline import solve
from fillsmt.fillomino.plain_format import read_puzzle
d=get_driver('yices')
files=sorted(glob.glob('../shared/instances/fillomino/janko-thesis100/puzzles/*.txt'))
res={'on':{}, 'race':{}}
for f in files:
    p=read_puzzle(f)
    for lv in (('on','race') if hash(f)%2 else ('race','on')):
        t=time.perf_counter(); r=solve(p,d,presolve=lv); res[lv][f]=time.perf_counter()-t
        assert r.grid is not None
ratios=[res['race'][f]/res['on'][f] for f in files]
for k,v in res.items(): print(k, 'median %.4f mean %.4f max %.3f'%(statistics.median(v.values()), statistics.mean(v.values()), max(v.values())))
print('race/on per puzzle: median %.3f'%statistics.median(ratios))
f286 = [f for f in files if f.endswith('286.txt')][0]
print('286: on %.3f s, race %.3f s' % (res['on'][f286], res['race'][f286]))
