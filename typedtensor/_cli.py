"""The ``typedtensor`` command (``python -m typedtensor``).

``typedtensor lsp`` runs the language server (``typedtensor._lsp``).

``typedtensor precompile [--dtypes float32,float64] [--layouts all,rows,columns] [--ops ...]
[--serial-only]`` compiles the numba kernels of the common reductions into the disk cache, so
that a program's first run loads them instead of compiling (``_backend/precompile.py``).

``typedtensor shapes FILE.py [FILE.py ...] [-- MYPY_ARGS]`` runs mypy (with the
``typedtensor_mypy`` plugin when it is installed) on the files and prints each source line
followed by the inferred tensor type of every name it binds, like an IDE's inlay hints, and
mypy's errors under the line they point at::

    y = x.sum(axis=1, keepdims=True)
    #   y: Tensor[float32, 8, 1]
    z = y.sum(axis=3)
    #   error: axis 3 is out of range for a rank-2 tensor; valid axes are -2..1  [typedtensor-axis]

Types come from mypy itself (``mypy.build.build`` with ``export_types``); nothing is
re-inferred here. Exit status: 0 clean, 1 when mypy reports errors, 2 for usage problems.
mypy is imported only when the command runs.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from mypy import nodes
    from mypy.build import BuildResult
    from mypy.nodes import Expression, MypyFile, Node
    from mypy.options import Options
    from mypy.plugin import Plugin
    from mypy.types import Instance, Type

__all__ = ["main", "render_type", "shapes"]

PLUGIN = "typedtensor_mypy"
_TENSOR = "typedtensor._tensor.Tensor"
_DTYPES = "typedtensor._dtypes."
#: the dim expression classes -> (operator, precedence): printed as Python arithmetic
_DIM_OPERATORS = {
    "typedtensor._dims.Add": ("+", 1),
    "typedtensor._dims.Sub": ("-", 1),
    "typedtensor._dims.Mul": ("*", 2),
    "typedtensor._dims.FloorDiv": ("//", 2),
    "typedtensor._dims.IntDiv": ("//", 2),
}
_MESSAGE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+): (?P<severity>error|note|warning): (?P<msg>.*)$"
)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``typedtensor`` console script: ``typedtensor shapes ex.py``."""
    args = list(sys.argv[1:] if argv is None else argv)
    mypy_args: list[str] = []
    if "--" in args:
        cut = args.index("--")
        args, mypy_args = args[:cut], args[cut + 1 :]
    parser = argparse.ArgumentParser(
        prog="typedtensor", description="typedtensor command-line tools"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    shapes_cmd = commands.add_parser(
        "shapes",
        help="print a file with the tensor type of each binding and mypy's errors in place",
        description=(
            "Run mypy (with the typedtensor_mypy plugin) on FILEs and print each source line "
            "followed by the inferred tensor types of the names it binds and mypy's errors. "
            "Arguments after -- go to mypy (e.g. -- --strict). Exit status 1 if mypy reports "
            "errors."
        ),
    )
    shapes_cmd.add_argument("files", nargs="+", metavar="FILE.py")
    shapes_cmd.add_argument(
        "--no-plugin",
        action="store_true",
        help=f"do not add the {PLUGIN} plugin (it is added when installed)",
    )
    commands.add_parser(
        "lsp",
        help="run the language server over stdio (inlay hints, hover, diagnostics from mypy)",
        description=(
            "A Language Server over stdin/stdout: mypy with the typedtensor_mypy plugin on the "
            "open documents (unsaved edits included), as diagnostics, inlay hints, hover and "
            "code actions. Needs pip install 'typedtensor[lsp]'. See docs/editors.md."
        ),
    )
    pre = commands.add_parser(
        "precompile",
        help="compile the numba kernels of the common reductions into the disk cache",
        description=(
            "Fill the numba kernel cache (TYPEDTENSOR_NUMBA_CACHE_DIR) so that a program's "
            "first run loads its kernels instead of compiling them (CI, a Docker build step)."
        ),
    )
    pre.add_argument("--dtypes", default="float32,float64", help="comma-separated dtypes")
    pre.add_argument("--layouts", default="all,rows,columns", help="all,rows,columns,short-rows")
    pre.add_argument("--ops", default=None, help="comma-separated reductions (default: common)")
    pre.add_argument("--serial-only", action="store_true", help="skip the parallel kernels")
    ns = parser.parse_args(args)
    if ns.command == "precompile":
        from ._backend.precompile import command

        return command(ns.ops, ns.dtypes, ns.layouts, serial_only=ns.serial_only)
    if ns.command == "lsp":
        from ._lsp import run

        return run()
    return shapes(ns.files, mypy_args, plugin=not ns.no_plugin)


# ------------------------------------------------------------------------ the command
@dataclass
class _Line:
    """What to print under one source line."""

    types: list[tuple[str, str]] = field(default_factory=list)  # (name, rendered type)
    messages: list[tuple[str, str]] = field(default_factory=list)  # (severity, text)


def shapes(
    files: Sequence[str],
    mypy_args: Sequence[str] = (),
    *,
    plugin: bool = True,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Print ``files`` with inferred tensor types and mypy's errors; return the exit status.

    ``x = tt.zeros((8, 3), dtype=tt.float32)`` is followed by ``#   x: Tensor[float32, 8, 3]``.
    """
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    try:
        from mypy import build
        from mypy.errors import CompileError
        from mypy.main import process_options
        from mypy.modulefinder import BuildSource
        from mypy.version import __version__ as mypy_version
    except ImportError:
        print(
            "typedtensor shapes runs mypy, which is not installed here; "
            "install it with `pip install 'shapetyped[mypy]'` (the tested versions) "
            "or `pip install mypy`",
            file=err,
        )
        return 2
    for path in files:
        if not os.path.isfile(path):
            print(f"typedtensor shapes: {path}: no such file", file=err)
            return 2
        if not path.endswith((".py", ".pyi")):
            print(f"typedtensor shapes: {path}: not a Python file (.py)", file=err)
            return 2
    try:
        sources, options = process_options([*mypy_args, *files], stdout=out, stderr=err)
    except SystemExit as exc:  # a bad mypy option: argparse already printed why
        return 2 if exc.code not in (0, None) else 0
    options.export_types = True  # keep every expression's type (BuildResult.types)
    options.preserve_asts = True  # keep the checked trees to walk them
    one_line_messages(options, columns=False)  # the format parsed below
    plugin_state = "plugin off (--no-plugin)"
    extra_plugins: list[Plugin] = []
    if plugin:
        plugin_state, extra_plugins = _enable_plugin(options)

    wanted = {os.path.abspath(p) for p in files}
    targets = [s for s in sources if s.path and os.path.abspath(s.path) in wanted]
    rebuilt = []
    for src in sources:
        if src in targets:
            # text given: mypy re-checks the module even when its cache is fresh, so that
            # the expression types are exported
            assert src.path is not None
            with open(src.path, encoding="utf-8") as fh:
                text = fh.read()
            src = BuildSource(src.path, src.module, text, src.base_dir, src.followed)
        rebuilt.append(src)
    try:
        result = build.build(rebuilt, options, stdout=out, stderr=err, extra_plugins=extra_plugins)
    except CompileError as exc:  # blocking errors (syntax errors, bad plugin...)
        for message in exc.messages:
            print(message, file=out)
        return 2

    per_file: dict[str, dict[int, _Line]] = {os.path.abspath(s.path or ""): {} for s in targets}
    elsewhere: list[str] = []
    n_errors, files_with_errors = 0, set()
    for message in result.errors:
        m = _MESSAGE.match(message)
        if m is None:
            elsewhere.append(message)
            continue
        if m["severity"] == "error":
            n_errors += 1
            files_with_errors.add(m["path"])
        lines = per_file.get(os.path.abspath(m["path"]))
        if lines is None:
            elsewhere.append(message)
            continue
        lines.setdefault(int(m["line"]), _Line()).messages.append((m["severity"], m["msg"]))

    many = len(targets) > 1
    for src in targets:
        assert src.path is not None
        if many:
            print(f"# ==> {src.path} <==", file=out)
        state = result.graph.get(src.module)
        tree = state.tree if state is not None else None
        _print_file(src.path, tree, result, per_file[os.path.abspath(src.path)], out)
    if elsewhere:
        print("# mypy messages about other files:", file=out)
        for message in elsewhere:
            print(f"#   {message}", file=out)
    checked = f"checked {len(targets)} source file{'s' if len(targets) != 1 else ''}"
    if n_errors:
        nf = len(files_with_errors)
        summary = (
            f"Found {n_errors} error{'s' if n_errors != 1 else ''} in {nf} "
            f"file{'s' if nf != 1 else ''} ({checked})"
        )
    else:
        summary = f"Success: no issues found ({checked})"
    print(f"# mypy {mypy_version}, {plugin_state}: {summary}", file=out)
    return 1 if n_errors else 0


def _enable_plugin(options: Options) -> tuple[str, list[Plugin]]:
    """The typedtensor plugin, when installed with a ``plugin`` entry point, and a status line.

    The plugin object is built here and handed to ``build`` as an extra plugin: mypy loads the
    ``plugins`` of a config file only when there is a config file.
    """
    from mypy.plugin import Plugin
    from mypy.version import __version__ as mypy_version

    if options.config_file and PLUGIN in options.plugins:
        return f"plugin {PLUGIN} (from {os.path.basename(options.config_file)})", []
    try:
        module = importlib.import_module(PLUGIN)
    except ImportError:
        return f"plugin {PLUGIN} not installed", []
    entry = getattr(module, "plugin", None)
    if not callable(entry):
        return f"plugin {PLUGIN} has no entry point yet (plain signatures only)", []
    plugin_type = entry(mypy_version)
    if not (isinstance(plugin_type, type) and issubclass(plugin_type, Plugin)):
        return f"plugin {PLUGIN}: its entry point did not return a mypy Plugin class", []
    return f"plugin {PLUGIN}", [plugin_type(options)]


def _print_file(
    path: str, tree: MypyFile | None, result: BuildResult, lines: dict[int, _Line], out: TextIO
) -> None:
    with open(path, encoding="utf-8") as fh:
        source = fh.read().splitlines()
    spans: dict[int, int] = {}  # each line of a simple statement -> the statement's last line
    if tree is not None:
        for start, end, names in _bindings(tree):
            for line in range(start, end + 1):
                spans.setdefault(line, end)
            for name, expr in names:
                typ = _type_of(expr, result)
                if typ is not None and mentions_tensor(typ):
                    lines.setdefault(end, _Line()).types.append((name, render_type(typ)))
    # a message about a line inside a multi-line statement goes under the statement
    placed: dict[int, _Line] = {}
    for line, info in sorted(lines.items()):
        anchor = spans.get(line, line) if info.messages and not info.types else line
        target = placed.setdefault(anchor, _Line())
        target.types.extend(info.types)
        target.messages.extend(info.messages)
    starts = {end: start for start, end in sorted(spans.items(), reverse=True)}
    for number, text in enumerate(source, start=1):
        print(text, file=out)
        if number not in placed:
            continue
        info = placed.pop(number)
        head = source[starts.get(number, number) - 1]
        indent = head[: len(head) - len(head.lstrip())]
        for name, rendered in info.types:
            print(f"{indent}#   {name}: {rendered}", file=out)
        for severity, msg in info.messages:
            print(f"{indent}#   {severity}: {msg}", file=out)
    for line, info in sorted(placed.items()):  # past the end (e.g. line 0 messages)
        for severity, msg in info.messages:
            print(f"#   line {line}: {severity}: {msg}", file=out)


# ---------------------------------------------------------------------- the tree walk
def _bindings(tree: MypyFile) -> Iterator[tuple[int, int, list[tuple[str, Expression]]]]:
    """(first line, anchor line, [(shown name, expression whose type to show)]) per statement.

    The anchor is a simple statement's last line, or a compound statement's header line.

    mypy's visitor classes are compiled traits that interpreted code cannot subclass, so the
    walk dispatches on node classes here.
    """
    from mypy import nodes

    def targets(lvalue: Expression) -> Iterator[tuple[str, Expression]]:
        if isinstance(lvalue, (nodes.TupleExpr, nodes.ListExpr)):
            for item in lvalue.items:
                yield from targets(item)
        elif isinstance(lvalue, nodes.StarExpr):
            yield from targets(lvalue.expr)
        elif isinstance(lvalue, nodes.NameExpr):
            yield lvalue.name, lvalue
        elif isinstance(lvalue, nodes.MemberExpr):
            yield _dotted(lvalue), lvalue
        elif isinstance(lvalue, nodes.IndexExpr):
            return  # x[i] = ...: no new binding

    def header(stmt: nodes.Statement, exprs: Sequence[Expression]) -> tuple[int, int]:
        return stmt.line, max([stmt.line, *(e.end_line or e.line for e in exprs)])

    def walk(
        stmts: Sequence[nodes.Statement],
    ) -> Iterator[tuple[int, int, list[tuple[str, Expression]]]]:
        for stmt in stmts:
            if isinstance(stmt, nodes.Decorator):
                stmt = stmt.func
            if isinstance(stmt, nodes.OverloadedFuncDef):
                if stmt.impl is not None:
                    impl = stmt.impl
                    yield from walk([impl.func if isinstance(impl, nodes.Decorator) else impl])
                continue
            simple = (stmt.line, stmt.end_line or stmt.line)
            if isinstance(stmt, nodes.AssignmentStmt):
                yield *simple, [t for lv in stmt.lvalues for t in targets(lv)]
            elif isinstance(stmt, nodes.OperatorAssignmentStmt):
                yield *simple, list(targets(stmt.lvalue))
            elif isinstance(stmt, nodes.ReturnStmt) and stmt.expr is not None:
                yield *simple, [("return", stmt.expr)]
            elif isinstance(stmt, nodes.ForStmt):
                yield *header(stmt, [stmt.index, stmt.expr]), list(targets(stmt.index))
            elif isinstance(stmt, nodes.WithStmt):
                bound = [t for tv in stmt.target if tv is not None for t in targets(tv)]
                yield *header(stmt, stmt.expr), bound
            elif not statement_blocks(stmt):
                yield *simple, []
            for block in statement_blocks(stmt):
                yield from walk(block.body)

    yield from walk(tree.defs)


def statement_blocks(node: Node) -> list[nodes.Block]:
    """The blocks directly inside a statement: ``if``'s bodies and ``else``, a ``def``'s body."""
    from mypy import nodes

    if isinstance(node, nodes.Decorator):
        node = node.func
    if isinstance(node, (nodes.FuncDef, nodes.ClassDef)):
        return [node.body] if isinstance(node, nodes.FuncDef) else [node.defs]
    if isinstance(node, nodes.IfStmt):
        return [*node.body, *([node.else_body] if node.else_body else [])]
    if isinstance(node, (nodes.ForStmt, nodes.WhileStmt)):
        return [node.body, *([node.else_body] if node.else_body else [])]
    if isinstance(node, nodes.WithStmt):
        return [node.body]
    if isinstance(node, nodes.TryStmt):
        extra = [b for b in (node.else_body, node.finally_body) if b is not None]
        return [node.body, *node.handlers, *extra]
    if isinstance(node, nodes.MatchStmt):
        return list(node.bodies)
    return []


def one_line_messages(options: Options, *, columns: bool) -> None:
    """One message a line: ``path:line[:col:end_line:end_col]: severity: text  [code]``."""
    options.pretty = False
    options.show_column_numbers = columns
    options.show_error_end = columns
    options.show_error_context = False
    options.show_error_code_links = False
    options.hide_error_codes = False
    options.color_output = False
    options.error_summary = False


def _dotted(expr: Expression) -> str:
    from mypy import nodes

    if isinstance(expr, nodes.NameExpr):
        return expr.name
    if isinstance(expr, nodes.MemberExpr):
        return f"{_dotted(expr.expr)}.{expr.name}"
    return "..."


def _type_of(expr: Expression, result: BuildResult) -> Type | None:
    from mypy import nodes

    typ = result.types.get(expr)
    if typ is None and isinstance(expr, nodes.NameExpr) and isinstance(expr.node, nodes.Var):
        typ = expr.node.type
    return typ


# ------------------------------------------------------------------- type rendering
def mentions_tensor(typ: Type) -> bool:
    """Whether a mypy type contains a ``Tensor`` (only such bindings are listed)."""
    from mypy import types as t

    p = t.get_proper_type(typ)
    if isinstance(p, t.Instance):
        return p.type.fullname == _TENSOR or any(mentions_tensor(a) for a in p.args)
    if isinstance(p, t.TupleType):
        return any(mentions_tensor(i) for i in p.items)
    if isinstance(p, t.UnionType):
        return any(mentions_tensor(i) for i in p.items)
    return False


def render_type(typ: Type) -> str:
    """Compact rendering of a mypy type: ``Tensor[float32, 8, B, ...]``.

    Strips ``typedtensor._dtypes.``, ``Literal[n]`` -> ``n``, TypeVars by name, ``Any`` ->
    ``?``, unknown rank ``*tuple[Any, ...]`` -> ``...``.
    """
    from mypy import types as t

    p = t.get_proper_type(typ)
    if isinstance(p, t.Instance):
        if p.type.fullname == _TENSOR:
            return "Tensor[" + ", ".join(_render_dim(a) for a in p.args) + "]"
        name = p.type.fullname
        if name in _DIM_OPERATORS and len(p.args) == 2:
            return _render_expression(p)
        if name.startswith(_DTYPES):
            return name[len(_DTYPES) :]
        if p.last_known_value is not None:
            return render_type(p.last_known_value)
        short = p.type.name
        if p.args:
            return f"{short}[{', '.join(render_type(a) for a in p.args)}]"
        return short
    if isinstance(p, t.TupleType):
        return "tuple[" + ", ".join(render_type(i) for i in p.items) + "]"
    if isinstance(p, t.UnionType):
        return " | ".join(render_type(i) for i in p.items)
    if isinstance(p, t.AnyType):
        return "?"
    if isinstance(p, t.NoneType):
        return "None"
    if isinstance(p, t.LiteralType):
        return repr(p.value) if isinstance(p.value, str) else str(p.value)
    if isinstance(p, (t.TypeVarType, t.TypeVarTupleType, t.ParamSpecType)):
        return p.name
    if isinstance(p, t.UnpackType):
        inner = t.get_proper_type(p.type)
        if isinstance(inner, t.Instance) and inner.type.fullname == "builtins.tuple":
            item = t.get_proper_type(inner.args[0])
            return "..." if isinstance(item, t.AnyType) else f"*tuple[{render_type(item)}, ...]"
        if isinstance(inner, t.TupleType):
            return ", ".join(render_type(i) for i in inner.items)
        return "*" + render_type(inner)
    return str(p)


def _render_dim(typ: Type) -> str:
    return render_type(typ)


def _render_expression(p: Instance) -> str:
    """``tt.Add[tt.Mul[L[2], B], N]`` as ``2 * B + N``; an operand in parentheses where
    Python's precedence needs them (``2 * (D // 8)``, ``B - (N + 1)``)."""
    from mypy import types as t

    op, level = _DIM_OPERATORS[p.type.fullname]
    parts = []
    for side, arg in enumerate(p.args):
        inner = t.get_proper_type(arg)
        text = render_type(inner)
        if isinstance(inner, t.Instance) and inner.type.fullname in _DIM_OPERATORS:
            inner_level = _DIM_OPERATORS[inner.type.fullname][1]
            if inner_level < level or (side == 1 and inner_level == level) or op == "//":
                text = f"({text})"
        parts.append(text)
    return f"{parts[0]} {op} {parts[1]}"
