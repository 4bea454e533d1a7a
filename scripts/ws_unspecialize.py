"""Rebuilds, from upstream's dump after the code partition (a function whose
body holds one `ttg.warp_specialize`), an IR as it stands before
upstream's `specializeRegion`: the regions' ops merged back into the
function body with the union of their `async_task_id`s (a loop's iteration
arguments the union of the regions' ones). Ops that compute the same thing
in several regions are merged (aligned by a longest common subsequence of
structural hashes), so specializing the result again must give the dump
back: that is the test of Tritium's specialize step.

    python3 scripts/ws_unspecialize.py 4-code-partition.mlir > pre.mlir

Handles what upstream's dumps of the corpus hold: plain one-line ops,
`scf.for` with iteration arguments, `tt.reduce` (generic form, several
lines); not `scf.if`.
"""
import hashlib
import re
import sys

TOKEN = re.compile(r"%[A-Za-z0-9_]+(?:#\d+)?")
TASK = re.compile(r"async_task_id = array<i32: ([0-9, ]+)>")
FOR = re.compile(
    r"^(?:(%\w+)(?::(\d+))? = )?scf\.for (%\w+) = (%\w+) to (%\w+) step (%\w+)"
    r"(?: iter_args\((.*)\) -> \((.*)\))?\s+: (\w+) \{$")


# (region tag, loop name, iteration argument) that must not be merged: the
# regions yield different values for them (a loop-carried value per task).
FORBID = set()


class Retry(Exception):
    pass


def h(*parts):
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:16]


def split_top(text):
    """Splits at commas outside <>, (), [], {}."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


class V:
    """A value of the merged function; `forward` set when merged into another."""

    def __init__(self, printer, hsh):
        self.printer = printer
        self.hash = hsh
        self.forward = None

    def final(self):
        v = self
        while v.forward is not None:
            v = v.forward
        return v

    def text(self):
        return self.final().printer()


def tasks_of(text):
    m = TASK.search(text)
    return set(int(x) for x in m.group(1).split(",")) if m else set()


class Plain:
    def __init__(self, template, values, results, local_names, tasks, hsh):
        self.template = template  # text with \x00i\x00 for values[i]
        self.values = values
        self.results = results
        self.tasks = tasks
        self.hash = hsh

    def lines(self, indent):
        tasks = "array<i32: " + ", ".join(str(t) for t in sorted(self.tasks)) + ">"
        text = re.sub(r"\x00(\d+)\x00", lambda m: self.values[int(m.group(1))].text(), self.template)
        text = TASK.sub("async_task_id = " + tasks, text)
        return [" " * indent + line for line in text.split("\n")]


class Entry:
    def __init__(self, loop, arg, res, init, yielded, ty):
        self.loop, self.arg, self.res, self.init, self.yielded, self.ty = loop, arg, res, init, yielded, ty


class Loop:
    def __init__(self, name, iv, lb, ub, step, ivty, tasks, hsh):
        self.name, self.iv, self.lb, self.ub, self.step, self.ivty = name, iv, lb, ub, step, ivty
        self.tasks = tasks
        self.hash = hsh
        self.entries = []
        self.body = []

    def res_text(self, entry):
        if len(self.entries) == 1:
            return self.name
        return f"{self.name}#{self.entries.index(entry)}"

    def lines(self, indent):
        pad = " " * indent
        head = ""
        if self.entries:
            n = len(self.entries)
            head = f"{self.name}{':' + str(n) if n > 1 else ''} = "
        text = f"{pad}{head}scf.for {self.iv.text()} = {self.lb.text()} to {self.ub.text()} step {self.step.text()}"
        if self.entries:
            args = ", ".join(f"{e.arg.text()} = {e.init.text()}" for e in self.entries)
            types = ", ".join(e.ty for e in self.entries)
            text += f" iter_args({args}) -> ({types})"
        text += f" : {self.ivty} {{"
        out = [text]
        for op in self.body:
            out += op.lines(indent + 2)
        tasks = "array<i32: " + ", ".join(str(t) for t in sorted(self.tasks)) + ">"
        y = f"{pad}  scf.yield {{async_task_id = {tasks}}}"
        if self.entries:
            y += " " + ", ".join(e.yielded.text() for e in self.entries)
            y += " : " + ", ".join(e.ty for e in self.entries)
        out.append(y)
        out.append(f"{pad}}} {{async_task_id = {tasks}}}")
        return out


class Region:
    """Parses one region's body into ops, resolving names to V objects."""

    def __init__(self, tag, symbols):
        self.tag = tag
        self.symbols = dict(symbols)  # name token -> V

    def lookup(self, token):
        if token not in self.symbols:
            raise SystemExit(f"unknown value {token} in region {self.tag}")
        return self.symbols[token]

    def local(self, name):
        return "%" + self.tag + "_" + name[1:]

    def parse_block(self, lines, i, indent):
        ops = []
        while i < len(lines):
            line = lines[i]
            ind = len(line) - len(line.lstrip())
            stripped = line.strip()
            if ind < indent or stripped.startswith("}"):
                return ops, i
            if stripped.startswith("ttg.warp_yield") or stripped.startswith("ttg.warp_return"):
                i += 1
                continue
            if stripped.startswith("scf.yield"):
                return ops, i
            m = FOR.match(stripped)
            if m:
                op, i = self.parse_for(m, lines, i, ind)
                ops.append(op)
                continue
            if "scf.if" in stripped:
                raise SystemExit("scf.if is not handled")
            if stripped.endswith("({"):
                j = i + 1
                while not (lines[j].strip().startswith("})") and len(lines[j]) - len(lines[j].lstrip()) == ind):
                    j += 1
                op = self.parse_plain(lines[i:j + 1])
                i = j + 1
            else:
                op = self.parse_plain([line])
                i += 1
            ops.append(op)
        return ops, i

    def parse_plain(self, lines):
        base = len(lines[0]) - len(lines[0].lstrip())
        first = lines[0].strip()
        m = re.match(r"^((?:%\w+(?::\d+)?)(?:, %\w+)*) = ", first)
        result_tokens = []
        lhs = ""
        if m:
            for part in m.group(1).split(", "):
                if ":" in part:
                    name, n = part.split(":")
                    result_tokens += [f"{name}#{k}" for k in range(int(n))]
                else:
                    result_tokens.append(part)
            lhs = re.sub(r"%\w+", lambda t: self.local(t.group(0)), m.group(1)) + " = "
            first = first[m.end():]
        text = "\n".join([first] + [l[base:] for l in lines[1:]])
        # names defined inside (the blocks of a tt.reduce)
        inner = set()
        for line in lines[1:]:
            mm = re.match(r"^\s*\^bb\d+\((.*)\):", line)
            if mm:
                inner |= set(TOKEN.findall(mm.group(1)))
            mm = re.match(r"^\s*(%\w+) = ", line)
            if mm:
                inner.add(mm.group(1))
        values, htoks, local_index = [], [], {}
        out, pos = "", 0
        for mt in TOKEN.finditer(text):
            tok = mt.group(0)
            out += text[pos:mt.start()]
            pos = mt.end()
            if tok in inner:
                out += self.local(tok)
                local_index.setdefault(tok, len(local_index))
                htoks.append(f"L{local_index[tok]}")
            else:
                v = self.lookup(tok)
                values.append(v)
                out += f"\x00{len(values) - 1}\x00"
                htoks.append(v.hash)
        out += text[pos:]
        skeleton = re.sub(r"\s+", " ", TASK.sub("", TOKEN.sub("%", text)))
        hsh = h(str(len(result_tokens)), skeleton, *htoks)
        op = Plain(lhs + out, values, [], inner, tasks_of(text), hsh)
        for k, tok in enumerate(result_tokens):
            printed = self.local(tok)
            v = V(lambda printed=printed: printed, h(hsh, str(k)))
            self.symbols[tok] = v
            op.results.append(v)
        return op

    def parse_for(self, m, lines, i, ind):
        res, nres, iv, lb, ub, step, iters, types, ivty = m.groups()
        lbv, ubv, stv = self.lookup(lb), self.lookup(ub), self.lookup(step)
        hsh = h("for", lbv.hash, ubv.hash, stv.hash)
        name = self.local(res) if res else "%" + self.tag + "_for" + str(i)
        loop = Loop(name, None, lbv, ubv, stv, ivty, set(), hsh)
        ivname = self.local(iv)
        loop.iv = V(lambda: ivname, h(hsh, "iv"))
        self.symbols[iv] = loop.iv
        arg_tokens = []
        if iters:
            pairs = re.split(r", (?=%\w+ = )", iters)
            tys = split_top(types)
            for k, (pair, ty) in enumerate(zip(pairs, tys)):
                a, init = pair.split(" = ")
                initv = self.lookup(init)
                aname = self.local(a)
                salt = self.tag if (self.tag, name, k) in FORBID else ""
                argv = V(lambda aname=aname: aname, h(hsh, "iter", initv.hash, salt))
                entry = Entry(loop, argv, None, initv, None, ty)
                entry.res = V(lambda loop=loop, entry=entry: loop.res_text(entry), h(hsh, "res", initv.hash, salt))
                entry.key = (self.tag, name, k)
                self.symbols[a] = argv
                loop.entries.append(entry)
                arg_tokens.append(a)
        body, j = self.parse_block(lines, i + 1, ind + 2)
        loop.body = body
        yline = lines[j].strip()
        assert yline.startswith("scf.yield"), yline
        ops = re.sub(r"^scf\.yield(?: \{[^}]*\})?", "", yline).split(" : ")[0]
        ytoks = TOKEN.findall(ops)
        assert len(ytoks) == len(loop.entries), yline
        for e, t in zip(loop.entries, ytoks):
            e.yielded = self.lookup(t)
        close = lines[j + 1]
        assert close.strip().startswith("}"), close
        loop.tasks = tasks_of(close)
        if res:
            n = int(nres or 1)
            for k, e in enumerate(loop.entries):
                self.symbols[res if n == 1 else f"{res}#{k}"] = e.res
        return loop, j + 2


def lcs(a, b):
    n, m = len(a), len(b)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for x in range(n - 1, -1, -1):
        for y in range(m - 1, -1, -1):
            dp[x][y] = dp[x + 1][y + 1] + 1 if a[x] == b[y] else max(dp[x + 1][y], dp[x][y + 1])
    pairs, x, y = [], 0, 0
    while x < n and y < m:
        if a[x] == b[y]:
            pairs.append((x, y))
            x += 1
            y += 1
        elif dp[x + 1][y] >= dp[x][y + 1]:
            x += 1
        else:
            y += 1
    return pairs


def same_operands(a, b):
    """Whether `b` computes the same as `a`: equal hashes and the same
    (merged) operands; equal hashes alone may pair copies of a computation."""
    if isinstance(a, Plain):
        return len(a.values) == len(b.values) and all(x.final() is y.final() for x, y in zip(a.values, b.values))
    return all(x.final() is y.final() for x, y in [(a.lb, b.lb), (a.ub, b.ub), (a.step, b.step)])


def merge_ops(a_ops, b_ops):
    pairs = lcs([o.hash for o in a_ops], [o.hash for o in b_ops])
    out = []
    ai = bi = 0
    for (x, y) in pairs + [(len(a_ops), len(b_ops))]:
        out += a_ops[ai:x]
        out += b_ops[bi:y]
        if x < len(a_ops):
            if same_operands(a_ops[x], b_ops[y]):
                merge_op(a_ops[x], b_ops[y])
                out.append(a_ops[x])
            else:
                out += [a_ops[x], b_ops[y]]
        ai, bi = x + 1, y + 1
    return out


def merge_op(a, b):
    a.tasks |= b.tasks
    if isinstance(a, Plain):
        for va, vb in zip(a.results, b.results):
            vb.forward = va
        return
    b.iv.forward = a.iv
    pairs = [(x, y) for (x, y) in lcs([e.arg.hash for e in a.entries], [e.arg.hash for e in b.entries])
             if a.entries[x].init.final() is b.entries[y].init.final()]
    entries = []
    ai = bi = 0
    for (x, y) in pairs + [(len(a.entries), len(b.entries))]:
        entries += a.entries[ai:x]
        for e in b.entries[bi:y]:
            e.loop = a
            e.res.printer = (lambda loop=a, entry=e: loop.res_text(entry))
            entries.append(e)
        if x < len(a.entries):
            b.entries[y].arg.forward = a.entries[x].arg
            b.entries[y].res.forward = a.entries[x].res
            entries.append(a.entries[x])
        ai, bi = x + 1, y + 1
    a.entries = entries
    a.body = merge_ops(a.body, b.body)
    for (x, y) in pairs:
        ea = b.entries[y].arg.final()
        ea = next(e for e in a.entries if e.arg is ea)
        if ea.yielded.final() is not b.entries[y].yielded.final():
            FORBID.add(b.entries[y].key)
            raise Retry()


def main():
    lines = open(sys.argv[1]).read().rstrip("\n").split("\n")
    ws = next(i for i, l in enumerate(lines) if l.strip().startswith("ttg.warp_specialize("))
    ws_line = lines[ws].strip()
    captures = TOKEN.findall(ws_line[len("ttg.warp_specialize("):ws_line.index(")")])
    indent = len(lines[ws]) - len(lines[ws].lstrip())
    outer = {}

    class Outer:
        pass

    for line in lines[:ws]:
        for tok in TOKEN.findall(line):
            if tok not in outer:
                outer[tok] = V(lambda tok=tok: tok, h("outer", tok))
    # regions
    regions = []
    i = ws + 1
    while True:
        head = lines[i].strip()
        if head.startswith("default {"):
            symbols = dict(outer)
            tag = "d"
        elif head.startswith("partition"):
            tag = "p" + re.match(r"partition(\d+)", head).group(1)
            args = TOKEN.findall(head[:head.index(")")])
            symbols = {a: outer[c] for a, c in zip(args, captures)}
        else:
            break
        r = Region(tag, symbols)
        ops, j = r.parse_block(lines, i + 1, indent + 2)
        assert lines[j].strip().startswith("}"), lines[j]
        regions.append(ops)
        i = j
        if lines[j].strip() != "}":
            i = j + 1
            break
        i = j + 1
    merged = regions[0]
    for ops in regions[1:]:
        merged = merge_ops(merged, ops)
    out = lines[:ws]
    for op in merged:
        out += op.lines(indent)
    out += lines[i:]
    print("\n".join(out))


if __name__ == "__main__":
    while True:
        try:
            main()
            break
        except Retry:
            continue
