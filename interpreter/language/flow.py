"""Flow analysis for the checker: which phases play can reach, which
defines are written in terms of themselves, and how deep and how large a
define is once the defines it uses are written out.

Pure functions over AST nodes; `checks` reports what they find. Play starts
after the setup, in the first phase unless the setup always jumps elsewhere;
a phase leads to every phase it may 'go to', and to the next phase unless it
always leaves by 'go to' or 'end game'.
"""

from __future__ import annotations

# A define's evaluation, through the defines it uses: at most this deep (the
# running game evaluates it by nested calls, within Python's stack) and at
# most this many formula nodes (a define that uses another twice doubles, so
# a short chain can ask for more work than any step may do).
MAX_DEFINE_DEPTH = 120
MAX_FORMULA_SIZE = 100_000


def jumps(node) -> list[str]:
    """The phases a node may 'go to', anywhere inside it."""
    out = []
    if isinstance(node, dict):
        if node.get("node") == "go_to":
            out.append(node["phase"])
        for v in node.values():
            out.extend(jumps(v))
    elif isinstance(node, list):
        for v in node:
            out.extend(jumps(v))
    return out


def always_leaves(block) -> bool:
    """Whether a block always ends with 'go to' or 'end game'."""
    for stmt in block["stmts"]:
        if stmt["node"] in ("go_to", "end_game"):
            return True
        if stmt["node"] == "if" and stmt["otherwise"] is not None \
                and always_leaves(stmt["then"]) and always_leaves(stmt["otherwise"]):
            return True
    return False


def unreachable_phases(phases: list, setup) -> list[int]:
    """Positions of the phases that play can never reach."""
    if not phases:
        return []
    order = [ph["name"] for ph in phases]
    leads = {ph["name"]: jumps(ph["body"]) for ph in phases}
    for i, ph in enumerate(phases[:-1]):
        if not always_leaves(ph["body"]):
            leads[ph["name"]].append(order[i + 1])
    work = []
    if setup is None or not always_leaves(setup):
        work.append(order[0])
    if setup is not None:
        work.extend(jumps(setup))
    reachable = set()
    while work:
        name = work.pop()
        if name in leads and name not in reachable:
            reachable.add(name)
            work.extend(leads[name])
    return [i for i, name in enumerate(order) if name not in reachable]


def define_cycles(uses: dict[str, set]) -> list[list[str]]:
    """Each circle of defines once, as a path from its first define in
    ``uses`` order back to it: ``uses`` maps a define to the defines it uses."""
    found, seen_circles = [], set()
    for start in uses:
        path, visited = [start], set()
        stack = [iter(sorted(uses[start]))]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                path.pop()
            elif nxt == start:
                if frozenset(path) not in seen_circles:
                    seen_circles.add(frozenset(path))
                    found.append(path + [start])
            elif nxt not in visited and nxt in uses:
                visited.add(nxt)
                path.append(nxt)
                stack.append(iter(sorted(uses[nxt])))
    return found


def _define_called(node):
    """The define a formula node calls or names, or None."""
    if node.get("ref") == "define" and node.get("node") in ("name", "call"):
        return node["name"] if node["node"] == "name" else node["fn"]
    return None


def formula_shape(node) -> tuple[int, int, list]:
    """(depth, nodes, [(depth of the node, define)] for each use of a define)
    of a formula, walked with a stack of its own."""
    deepest, count, calls = 0, 0, []
    stack = [(node, 1)]
    while stack:
        x, depth = stack.pop()
        if isinstance(x, list):
            stack.extend((v, depth) for v in x)
            continue
        if not isinstance(x, dict):
            continue
        if "node" in x:
            count += 1
            deepest = max(deepest, depth)
            name = _define_called(x)
            if name is not None:
                calls.append((depth, name))
            depth += 1
        stack.extend((v, depth) for k, v in x.items() if k != "at" and isinstance(v, (dict, list)))
    return deepest, count, calls


def define_costs(bodies: dict) -> dict:
    """{define: (depth, size)} with every define it uses written out in place:
    how deep its evaluation nests and how many formula nodes it evaluates at
    most. ``bodies`` maps each define to its body; they use no define in a
    circle (checked first). Callees are worked out before their callers, with
    a stack of its own, so a chain of any length is measured."""
    shapes = {name: formula_shape(body) for name, body in bodies.items()}
    costs: dict = {}
    for root in bodies:
        stack = [root]
        while stack:
            name = stack[-1]
            if name in costs:
                stack.pop()
                continue
            depth, size, calls = shapes[name]
            waiting = [callee for _, callee in calls if callee in shapes and callee not in costs]
            if waiting:
                stack.extend(waiting)
                continue
            stack.pop()
            for at, callee in calls:
                if callee in costs:
                    callee_depth, callee_size = costs[callee]
                    depth = max(depth, at + callee_depth)
                    size += callee_size
            costs[name] = (depth, size)
    return costs


def expanded_size(node, costs: dict) -> int:
    """Formula nodes of `node` with the defines it uses written out."""
    _, size, calls = formula_shape(node)
    return size + sum(costs[name][1] for _, name in calls if name in costs)
