# -*- Python -*-
# lit configuration of Tritium's dialect tests (round trips and verifier
# diagnostics of tt, ttg and ttng), in the style of MLIR's and Triton's.
#
# Run from the repository root, after `cargo build -p tt-opt`:
#   /usr/lib/llvm-22/bin/lit -v test/
# Environment:
#   TT_OPT_DIR      directory holding tt-opt (default: <repo>/target/debug)
#   LLVM_TOOLS_DIR  directory holding FileCheck and not (default: /usr/lib/llvm-22/bin)
# ruff: noqa: F821

import os

import lit.formats

config.name = 'TRITIUM'
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = ['.mlir']

# The corpus fixtures are inputs of other tests, not lit tests; test/upstream
# holds a dev tool and its notes.
config.excludes = ['fixtures', 'upstream', 'lit.cfg.py', 'lit.site.cfg.py', 'README.md']

config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo_root = os.path.dirname(config.test_source_root)
# Keep lit's Output/ directories out of the source tree.
config.test_exec_root = os.path.join(repo_root, 'target', 'lit')

tt_opt_dir = os.environ.get('TT_OPT_DIR') or os.path.join(repo_root, 'target', 'debug')
llvm_tools_dir = os.environ.get('LLVM_TOOLS_DIR') or '/usr/lib/llvm-22/bin'

tools = [('tt-opt', tt_opt_dir), ('FileCheck', llvm_tools_dir), ('not', llvm_tools_dir),
         ('split-file', llvm_tools_dir)]
for tool, directory in tools:
    if not os.path.exists(os.path.join(directory, tool)):
        lit_config.fatal(f"{tool} not found in {directory}")
# The compiler command, for tests of `tritium compile` (scripts/test.sh builds
# it; tests that need it say `REQUIRES: tritium`).
if os.path.exists(os.path.join(tt_opt_dir, 'tritium')):
    tools.append(('tritium', tt_opt_dir))
    config.available_features.add('tritium')

# tt-opt, FileCheck and not resolve through substitutions (whole words of RUN
# lines become absolute paths) and, for anything a RUN line starts, through
# PATH with the tool directories first.
for tool, directory in tools:
    config.substitutions.append((r'(?<![-\w./%])' + tool + r'(?![-\w.])',
                                 os.path.join(directory, tool)))
config.environment['PATH'] = os.pathsep.join(
    [tt_opt_dir, llvm_tools_dir, config.environment.get('PATH', os.environ.get('PATH', ''))])

# As in MLIR's test suites: a variable captured before a CHECK-LABEL is not
# visible after it unless its name starts with `$`.
config.environment['FILECHECK_OPTS'] = '--enable-var-scope'
