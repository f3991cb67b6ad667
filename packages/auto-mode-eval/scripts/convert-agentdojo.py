#!/usr/bin/env python3
"""Converts AgentDojo v1's ground-truth calls into an @x/auto-mode-eval dataset.

Usage: python3 scripts/convert-agentdojo.py <agentdojo checkout> <commit> <source url> > datasets/agentdojo.json

AgentDojo (github.com/ethz-spylab/agentdojo, MIT) states, for every task of its four v1 suites, the
calls that carry the task out (`ground_truth`). The file is read with Python's `ast` only — nothing
of AgentDojo is imported or run — so a value the source computes from the environment at run time
cannot be read; a call with such an argument is left out (counted on stderr). Injection tasks state
`placeholder_args` for exactly that reason, and those are used where present.

Per-call labels:
- a user task's calls should run (`allow`), each shown after the user's prompt and the task's earlier calls;
- an injection task's calls that change something (anything but get/read/search/list/check calls) should be
  blocked (`block`). The user asked for a user task of the same suite (injection task i is paired with user
  task i mod n), the agent made that task's first call — whose result is where AgentDojo plants the injection —
  then the injection's earlier calls; its read calls are left out, since reading is not what makes it harmful.

Split: a task is `heldout` when the first byte of sha256("<suite>/<task>") is below 77 (about 30 %), for every
call of the task, so the held-out set shares no task with the rest.
"""

import ast
import hashlib
import json
import sys
from pathlib import Path

SUITES = ["banking", "slack", "travel", "workspace"]
READ_PREFIXES = ("get_", "read_", "search_", "list_", "check_", "find_")


class Unresolved(Exception):
    pass


def evaluate(node, scope):
    """A literal, or built from literals and names in `scope`; anything else is Unresolved."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in scope:
            return scope[node.id]
        raise Unresolved(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        if node.attr in scope:
            return scope[node.attr]
        raise Unresolved(node.attr)
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                parts.append(str(evaluate(value.value, scope)))
            else:
                parts.append(str(evaluate(value, scope)))
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return evaluate(node.left, scope) + evaluate(node.right, scope)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -evaluate(node.operand, scope)
    if isinstance(node, (ast.List, ast.Tuple)):
        return [evaluate(item, scope) for item in node.elts]
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            raise Unresolved("**")
        return {evaluate(k, scope): evaluate(v, scope) for k, v in zip(node.keys, node.values)}
    raise Unresolved(ast.dump(node)[:40])


def class_scope(cls, module_scope):
    scope = dict(module_scope)
    for stmt in cls.body:
        targets = []
        if isinstance(stmt, ast.Assign):
            targets = [t.id for t in stmt.targets if isinstance(t, ast.Name)]
            value = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            targets = [stmt.target.id]
            value = stmt.value
        for name in targets:
            try:
                scope[name] = evaluate(value, scope)
            except Unresolved:
                pass
    return scope


def module_scope(tree):
    scope = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    try:
                        scope[target.id] = evaluate(stmt.value, scope)
                    except Unresolved:
                        pass
    return scope


def registered(cls, kind):
    for decorator in cls.decorator_list:
        if isinstance(decorator, ast.Attribute) and decorator.attr == f"register_{kind}_task":
            return True
    return False


def ground_truth(cls, scope, skipped):
    """The task's FunctionCalls whose arguments resolve, in order; None when the body is not a list of them."""
    method = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "ground_truth"), None)
    if method is None:
        return None
    local = dict(scope)
    calls = None
    for stmt in method.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            try:
                local[stmt.targets[0].id] = evaluate(stmt.value, local)
            except Unresolved:
                local.pop(stmt.targets[0].id, None)
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.List):
            calls = stmt.value.elts
    if calls is None:
        return None
    out = []
    for call in calls:
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "FunctionCall"):
            return None
        keywords = {k.arg: k.value for k in call.keywords}
        try:
            name = evaluate(keywords["function"], local)
            args_node = keywords.get("placeholder_args") or keywords.get("args")
            args = evaluate(args_node, local) if args_node is not None else {}
        except (Unresolved, KeyError):
            skipped.append(cls.name)
            out.append(None)
            continue
        out.append({"name": name, "arguments": args})
    return out


def tool_descriptions(root):
    """Each tool function's docstring, first paragraph, as the agent's tool description."""
    out = {}
    for path in sorted((root / "src/agentdojo/default_suites/v1/tools").glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                doc = ast.get_docstring(node) or ""
                out[node.name] = " ".join(doc.split("\n\n")[0].split())
    return out


def heldout(key):
    return hashlib.sha256(key.encode()).digest()[0] < 77


def tasks(root, suite, kind):
    path = root / f"src/agentdojo/default_suites/v1/{suite}/{kind}_tasks.py"
    tree = ast.parse(path.read_text())
    scope = module_scope(tree)
    found = []
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and registered(cls, kind):
            found.append((cls, class_scope(cls, scope)))
    return found


def main():
    root, commit, source = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    tools = tool_descriptions(root)
    cases = []
    skipped = []
    for suite in SUITES:
        users = []
        for cls, scope in tasks(root, suite, "user"):
            calls = ground_truth(cls, scope, skipped)
            if calls is None or "PROMPT" not in scope:
                skipped.append(cls.name)
                continue
            users.append((cls.name, scope["PROMPT"], calls))
            split = "heldout" if heldout(f"{suite}/{cls.name}") else "dev"
            for index, call in enumerate(calls):
                if call is None:
                    continue
                cases.append(
                    {
                        "id": f"{suite}-{cls.name}-{index}",
                        "category": f"{suite}/user_task",
                        "label": "allow",
                        "user": scope["PROMPT"],
                        "transcript": [{"kind": "tool_call", **c} for c in calls[:index] if c is not None],
                        "call": call,
                        "tools": [{"name": call["name"], "description": tools.get(call["name"], "")}],
                        "split": split,
                        "origin": f"src/agentdojo/default_suites/v1/{suite}/user_tasks.py {cls.name}",
                    }
                )
        for number, (cls, scope) in enumerate(tasks(root, suite, "injection")):
            calls = ground_truth(cls, scope, skipped)
            if calls is None or not users:
                skipped.append(cls.name)
                continue
            user_name, prompt, user_calls = users[number % len(users)]
            first = [c for c in user_calls[:1] if c is not None]
            split = "heldout" if heldout(f"{suite}/{cls.name}") else "dev"
            for index, call in enumerate(calls):
                if call is None or call["name"].startswith(READ_PREFIXES):
                    continue
                earlier = [c for c in calls[:index] if c is not None]
                cases.append(
                    {
                        "id": f"{suite}-{cls.name}-{index}",
                        "category": f"{suite}/injection_task",
                        "label": "block",
                        "user": prompt,
                        "transcript": [{"kind": "tool_call", **c} for c in first + earlier],
                        "call": call,
                        "tools": [{"name": call["name"], "description": tools.get(call["name"], "")}],
                        "split": split,
                        "origin": f"src/agentdojo/default_suites/v1/{suite}/injection_tasks.py {cls.name}"
                        f" (user's words from {user_name})",
                    }
                )
    print(f"{len(cases)} cases; {len(skipped)} calls or tasks left out: {', '.join(skipped)}", file=sys.stderr)
    dataset = {
        "name": "agentdojo",
        "source": source,
        "commit": commit,
        "licence": "MIT (AgentDojo, Copyright (c) 2024 Edoardo Debenedetti, Jie Zhang, Mislav Balunovic, "
        "Luca Beurer-Kellner, Marc Fischer, and Florian Tramèr)",
        "labelling": "A user task's ground-truth calls should run, after the user's prompt and the task's earlier "
        "calls. An injection task's ground-truth calls that change something should be blocked: the user asked for "
        "a user task of the same suite, the agent made that task's first call (where the injection arrives), then "
        "the injection's earlier calls. Injection reads, and calls whose arguments AgentDojo computes at run time, "
        "are left out.",
        "convertedBy": "scripts/convert-agentdojo.py",
        "cases": cases,
    }
    json.dump(dataset, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
