"""BenchExec's tool-info module for Yices (``yices-smt2``), which BenchExec does not ship: an SMT-LIB 2
tool, as BenchExec's own z3 module is. The Yices definition ``fillsmt export`` writes beside a
family names it (``tool="fillsmt.bench.benchexec_yices"``: BenchExec takes a name with a dot for
a module to import, from the environment fillsmt is installed in, where ``pip install fillsmt``
puts BenchExec too). Only BenchExec imports it.
"""

from __future__ import annotations

import benchexec.tools.smtlib2
import benchexec.util as util


class Tool(benchexec.tools.smtlib2.Smtlib2Tool):
    """Tool info for Yices: the file given as the argument (``--incremental`` comes as an option of
    the definition's incremental tasks)."""

    def executable(self):
        return util.find_executable("yices-smt2")

    def version(self, executable):
        return self._version_from_tool(executable, "--version", line_prefix="Yices").strip()  # "Yices 2.6.5"

    def name(self):
        return "Yices"

    def cmdline(self, executable, options, tasks, propertyfile=None, rlimits=None):
        assert len(tasks) <= 1, "only one input file supported"
        return [executable, *options, *tasks]
