#!/usr/bin/env python3
# layers.py -- the source tree's rooms and the include graph between them, checked: a
# file includes only from its own directory and the layers below it (the Makefile's
# LAYERS, bottom first, the same order its include paths follow), every directory with
# sources is a layer, no module (a .c and its .h) reaches itself through includes, and
# no six lines of code stand the same in two places of the sources (blank lines and
# comments aside).
#
#   tests/layers.py [--stats] [--layers "bpf src ui"] [ROOT]
#
#   (none)     the checks, as a test suite: "ok"/"FAIL" lines, then "# layers: N passed..."
#   --stats    what a reader of the tree meets: files and levels, edges, the largest files
#              and functions, the blocks repeated (the figures the layering work is
#              measured by)
#   --layers   the layers to read instead of the Makefile's (an older tree: "bpf src ui")
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SYSTEM_INCLUDE = re.compile(r"^\s*#\s*include\s+<([^>]+)>", re.M)  # ours, if a layer has it
GENERATED = {"flowtop.skel.h", "flowtop_ports.skel.h"}  # made by bpftool from bpf/ at build time


def makefile_layers(root):
    with open(os.path.join(root, "Makefile")) as f:
        m = re.search(r"^LAYERS\s*:?=\s*(.+)$", f.read(), re.M)
    if not m:
        sys.exit("layers.py: no LAYERS in the Makefile")
    return m.group(1).split()


def sources(root, layers):
    files = {}
    for layer in layers:
        d = os.path.join(root, layer)
        for name in sorted(os.listdir(d)):
            if name.endswith((".c", ".h")):
                with open(os.path.join(d, name), errors="replace") as f:
                    files[f"{layer}/{name}"] = f.read()
    return files


def resolve(root, path, inc, layers):
    """The file an include names, as the compiler finds it (its own directory, then the
    layers' include paths bottom first), and the layer that holds it."""
    here = os.path.dirname(path)
    cand = os.path.normpath(os.path.join(here, inc))
    if os.path.exists(os.path.join(root, cand)):
        return cand
    for layer in layers:
        cand = os.path.normpath(os.path.join(layer, inc))
        if os.path.exists(os.path.join(root, cand)):
            return cand
    return None


def layer_of(path, layers):
    return os.path.dirname(path) if os.path.dirname(path) in layers else None


def module(path):
    return os.path.splitext(path)[0]


def graph(root, layers, files):
    """Module edges (a -> b: a's .c or .h includes b's .h) and the violations met."""
    edges, wrong = {}, []
    for path, text in files.items():
        a = module(path)
        edges.setdefault(a, set())
        quoted = [(inc, True) for inc in INCLUDE.findall(text)]
        angled = [(inc, False) for inc in SYSTEM_INCLUDE.findall(text)]
        for inc, ours in quoted + angled:
            if os.path.basename(inc) in GENERATED:
                continue
            to = resolve(root, path, inc, layers) if ours else resolve(root, "", inc, layers)
            if to is None:
                if ours:
                    wrong.append(f"{path} includes \"{inc}\", which is none of the layers' files")
                continue
            if layer_of(to, layers) is None:
                wrong.append(f"{path} includes {to}, which is in no layer")
                continue
            if layers.index(layer_of(to, layers)) > layers.index(layer_of(path, layers)):
                wrong.append(f"{path} includes {to}, of a higher layer")
            if module(to) != a:
                edges[a].add(module(to))
    return edges, wrong


def cycles(edges):
    """The modules that reach themselves, each cycle once (Tarjan's components)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def levels(edges):
    """Each module's level: 1 + the highest level of what it includes."""
    memo = {}

    def level(v, seen=()):
        if v not in memo:
            memo[v] = 1 + max((level(w, seen + (v,)) for w in edges.get(v, ()) if w not in seen),
                              default=0)
        return memo[v]

    return {v: level(v) for v in edges}


FUNC_START = re.compile(r"^[A-Za-z_][^;]*\)\s*$")


def functions(path, text):
    """(lines, name) of each function defined at file scope, kernel style: the body's
    braces stand alone at column 0."""
    out, lines = [], text.split("\n")
    for i, line in enumerate(lines):
        if line != "{" or i == 0:
            continue
        head = lines[i - 1]
        j = i - 1
        while j > 0 and not FUNC_START.match(lines[j]) and lines[j].startswith((" ", "\t")):
            j -= 1
        m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", lines[j] if j >= 0 else head)
        end = next((k for k in range(i + 1, len(lines)) if lines[k] == "}"), None)
        if m and end is not None and "=" not in lines[j].split("(")[0]:
            out.append((end - j + 1, f"{path}:{m.group(1)}"))
    return out


REPEAT_LINES = 6


def code_lines(text):
    """(line number, text) of the lines that are code: stripped, blank lines and comments
    left out (and includes), the object before each -> or . one name."""
    out, in_comment = [], False
    for n, line in enumerate(text.split("\n"), 1):
        t = line.strip()
        if in_comment:
            if "*/" in t:
                in_comment = False
                t = t.split("*/", 1)[1].strip()
            else:
                continue
        if t.startswith("/*"):
            if "*/" not in t:
                in_comment = True
                continue
            t = t.split("*/", 1)[1].strip()
        t = re.sub(r"\s*//.*$", "", t) if t.startswith("//") else t
        if t and not t.startswith("#include"):
            # the object a member is read of is named apart: r->expr and d->expr alike
            out.append((n, re.sub(r"\b[A-Za-z_]\w*(->|\.(?=[a-z_]))", r"_\1", t)))
    return out


def repeats(files):
    """Pairs of places, in two files or one, whose REPEAT_LINES lines of code are the
    same: (path, first line, path, first line), one per pair of places met first."""
    seen, out, said = {}, [], set()
    for path in sorted(files):
        lines = code_lines(files[path])
        for i in range(len(lines) - REPEAT_LINES + 1):
            window = tuple(t for _, t in lines[i:i + REPEAT_LINES])
            if sum(len(t) > 3 for t in window) < REPEAT_LINES - 1:
                continue  # braces and such: no block worth naming
            where = (path, lines[i][0])
            if window in seen and (seen[window][0], path) not in said:
                first = seen[window]
                if first[0] != path or lines[i][0] - first[1] >= REPEAT_LINES:
                    out.append((first[0], first[1], path, lines[i][0]))
                    said.add((first[0], path))
            seen.setdefault(window, where)
    return out


def stats(root, layers, files, edges):
    lv = levels(edges)
    c_lines = {p: t.count("\n") for p, t in files.items()}
    funcs = sorted((f for p, t in files.items() if p.endswith(".c") for f in functions(p, t)),
                   reverse=True)
    sizes = sorted(n for n, _ in funcs)
    print(f"layers (bottom first): {' '.join(layers)}")
    for layer in layers:
        n = sum(1 for p in files if os.path.dirname(p) == layer)
        lines = sum(c_lines[p] for p in files if os.path.dirname(p) == layer)
        mods = sorted({module(p) for p in files if os.path.dirname(p) == layer})
        print(f"  {layer:12} {len(mods):3} modules {n:3} files {lines:6} lines")
    print(f"modules: {len(edges)}; include edges between modules: "
          f"{sum(len(v) for v in edges.values())}; levels: {max(lv.values())}")
    print(f"files: {len(files)}; lines: {sum(c_lines.values())}")
    print("largest files: " + ", ".join(f"{p} {n}" for n, p in
                                        sorted(((n, p) for p, n in c_lines.items()),
                                               reverse=True)[:5]))
    print(f"functions: {len(funcs)}; median {sizes[len(sizes) // 2]} lines; "
          f"over 100: {sum(1 for n in sizes if n > 100)}; largest: " +
          ", ".join(f"{name} {n}" for n, name in funcs[:5]))
    rep = repeats(files)
    print(f"blocks of {REPEAT_LINES} code lines repeated: {len(rep)}" +
          "".join(f"\n  {a}:{la} ~ {b}:{lb}" for a, la, b, lb in rep))


def main(argv):
    args, layers, show = list(argv), None, False
    if "--stats" in args:
        args.remove("--stats")
        show = True
    if "--layers" in args:
        i = args.index("--layers")
        layers = args[i + 1].split()
        del args[i:i + 2]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    layers = layers or makefile_layers(root)
    files = sources(root, layers)
    edges, wrong = graph(root, layers, files)
    if show:
        stats(root, layers, files, edges)
        return 0
    passed = failed = 0

    def check(ok, what, why=()):
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"ok   {what}")
        else:
            failed += 1
            print(f"FAIL {what}")
            for w in why:
                print(f"     {w}")

    check(not wrong, "every include is of the file's own layer or one below it", wrong)
    loops = cycles(edges)
    check(not loops, "no module reaches itself through includes",
          [" -> ".join(c) for c in loops])
    twice = repeats(files)
    check(not twice, f"no {REPEAT_LINES} lines of code stand twice in the sources",
          [f"{a}:{la} ~ {b}:{lb}" for a, la, b, lb in twice])
    rooms = set()
    for base in ("src", "ui", "bpf"):
        for d, _, names in os.walk(os.path.join(root, base)):
            if any(n.endswith((".c", ".h")) for n in names):
                rooms.add(os.path.relpath(d, root))
    stray = sorted(rooms - set(layers))
    check(not stray, "every directory with sources is a layer of the Makefile's LAYERS",
          [f"{d} is in none" for d in stray])
    print(f"# layers: {passed} passed, {failed} failed, 0 skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
