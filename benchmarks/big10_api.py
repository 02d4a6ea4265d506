"""330's lazy loop through libyices in this process, by context mode (issue 17, tenth session: big).

    python benchmarks/big10_api.py MODE      # MODE: push-pop or multi-checks (a yices context mode)

The script's assertions are parsed by libyices (``yices_parse_term``: the core and integer
operators are spelled as in SMT-LIB) and asserted at once; each round checks, reads the cell
numbers from the model, and asserts ``lazy-local-general``'s cuts (no pins, no bounds: the cuts
as before this session). Prints the stages' seconds and the checks' CPU seconds (this process).
Measured, not kept: a ``multi-checks`` context checks no faster than ``push-pop``.
"""
import sys, time, re, ctypes
from fillsmt.drivers.yices_api import load_yices
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.lazy import cut_texts
from fillsmt.fillomino.names import number_vars
from fillsmt.smtlib.script import script_body
y = load_yices()
import yices_api as yapi
mode = sys.argv[1]
p = sys.argv[2] if len(sys.argv) > 2 else '../shared/instances/fillomino/hard-tail/puzzles/330.txt'
t0=time.perf_counter()
puzzle=KIND.parse(open(p).read(),p)
found=KIND.presolve(puzzle)
script=KIND.encode(found.puzzle,"lazy-local-general",found.hints)
H,W=puzzle.height,puzzle.width
t1=time.perf_counter()
cfg=y.Config(); cfg.default_config_for_logic("QF_LIA"); cfg.set_config("mode", mode)
ctx=y.Context(cfg)
terms={}
asserts=[]
for c in script.commands:
    if c.name=="declare-fun":
        terms[c.args[0]]=y.Terms.new_uninterpreted_term(y.Types.int_type(), c.args[0])
body=script_body(script, False)
for line in body.splitlines():
    if line.startswith("(assert "):
        asserts.append(y.Terms.parse_term(line[8:-1]))
ctx.assert_formulas(asserts)
t2=time.perf_counter()
order=[terms[n] for n in number_vars(H, W)]
arr=(ctypes.c_int32*1)()
chk=get=cut=snd=ccpu=0.0; rounds=0; ncuts=0
while True:
    a=time.perf_counter(); ca=time.process_time()
    st=ctx.check_context(); rounds+=1
    ccpu+=time.process_time()-ca
    b=time.perf_counter(); chk+=b-a
    assert st==y.Status.SAT, st
    m=y.Model.from_context(ctx,1)
    vals=[m.get_integer_value(t) for t in order]
    m.dispose()
    grid=[vals[r*W:(r+1)*W] for r in range(H)]
    c=time.perf_counter(); get+=c-b
    cuts=cut_texts(grid)
    d=time.perf_counter(); cut+=d-c
    if not cuts: break
    ncuts+=len(cuts)
    ctx.assert_formulas([y.Terms.parse_term(x) for x in cuts])
    snd+=time.perf_counter()-d
print(mode, f"checkcpu {ccpu:.2f} presolve+enc {t1-t0:.2f} load {t2-t1:.2f} rounds {rounds} cuts {ncuts} checks {chk:.2f} get {get:.2f} cuts {cut:.2f} send {snd:.2f} total {time.perf_counter()-t0:.2f}")
