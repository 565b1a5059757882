"""moto's DynamoDB expressions parsed once per text, not at every call.

moto 5.2.1 lexes and parses a condition expression anew each time it meets one, and meets each
several times a call: a transaction's update is parsed by its request's validation, by the
transaction and by the update itself (its condition three times, its update expression twice),
with the lexer trying six regular expressions per token. The service sends a handful of texts
(boto3's builder writes `#n0 = :v0` for every such condition), and at 50 matches a submission
spent 2.4 of its 14 ms of CPU there.

- `ConditionExpressionParser.parse`: the syntax tree it builds depends on the expression, its
  attribute names and which value placeholders exist, never on the values themselves (they are
  looked up by placeholder and only carried into the tree's leaves). Each such key keeps its tree
  once, frozen (children as tuples, value leaves emptied); a later parse of the same key binds its
  own values into a fresh copy of that tree and lets moto build the operators from it
  (`_make_op_condition`), and reports the names and placeholders found as moto's parse would. A
  parse that fails is not kept: it fails again, as moto's does.
- `UpdateExpressionParser.make`: its tree depends on the text alone. moto reads the tree
  (`find_clauses`) or hands it to a `Validator`, which deep-copies it before anything is resolved
  into it (`Validator.__init__`), so one tree serves every call of the same text.

Every function relied on is pinned by the digest of its moto 5.2.1 source (`SEAMS`):
tests/integration/test_moto_expressions.py fails loudly the day one changes, and proves the
trees equal moto's own over many expressions.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable, Hashable
from functools import cache, partial
from importlib.metadata import version
from typing import Any

from moto.dynamodb.comparisons import ConditionExpressionParser
from moto.dynamodb.models import DynamoDBBackend
from moto.dynamodb.parsing.expressions import UpdateExpressionParser
from moto.dynamodb.parsing.validators import Validator
from moto.dynamodb.responses import DynamoHandler

PINNED_MOTO = "5.2.1"
SEAMS: dict[str, tuple[Callable[..., Any], str]] = {
    "ConditionExpressionParser.parse": (ConditionExpressionParser.parse, "5c9b63c5f49ed5d5"),
    "ConditionExpressionParser._make_op_condition": (ConditionExpressionParser._make_op_condition, "e9d1e9c70b61ac24"),
    "ConditionExpressionParser._make_operand": (ConditionExpressionParser._make_operand, "021131942c01900c"),
    "UpdateExpressionParser.make": (UpdateExpressionParser.make.__func__, "2c00ed96d6e191f2"),  # type: ignore[attr-defined]
    # the tree's users: each reads it or deep-copies it (Validator) before changing anything
    "Validator.__init__": (Validator.__init__, "9489b532dd0fb359"),
    "DynamoHandler.update_item": (DynamoHandler.update_item, "044f932aa7b40a25"),
    "DynamoHandler.transact_write_items": (DynamoHandler.transact_write_items, "968414dfa1469e76"),
    "DynamoDBBackend.update_item": (DynamoDBBackend.update_item, "218984588dd689a5"),
}
"""Each function relied on, as imported, and the first 16 hex digits of the SHA-256 of its source."""
KEPT = 4096
"""Trees kept per kind before starting afresh (the service writes a few dozen texts)."""

Node = ConditionExpressionParser.Node
VALUE = ConditionExpressionParser.Kind.EXPRESSION_ATTRIBUTE_VALUE


_installed = cache(partial(version, "moto"))


def seam_digest(function: Callable[..., Any]) -> str:
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]


@cache
def changed_seams() -> tuple[str, ...]:
    """The functions relied on whose source is not the one pinned (read once a process: every stack
    installs the caches)."""
    return tuple(name for name, (function, digest) in SEAMS.items() if seam_digest(function) != digest)


def _frozen(node: Any) -> Any:
    """A parsed tree that shares nothing mutable: children as tuples, value leaves emptied."""
    if node.kind == VALUE:
        return node._replace(value=None, children=())
    return node._replace(children=tuple(_frozen(child) for child in node.children))


def _bound(node: Any, lookup: Callable[[str], Any]) -> Any:
    """A fresh copy of a frozen tree with each value leaf's value looked up by its placeholder."""
    nonterminal, kind, text, value, children = node
    if kind == VALUE:
        return Node(nonterminal, kind, text, lookup(text), [])
    if not children:
        return node
    return Node(nonterminal, kind, text, value, [_bound(child, lookup) for child in children])


def _condition_key(parser: Any) -> Hashable:
    names, values = parser.expression_attribute_names, parser.expression_attribute_values
    return (
        parser.condition_expression,
        None if names is None else tuple(sorted(names.items())),
        None if values is None else tuple(sorted(values)),
    )


def cached_conditions() -> Callable[[], None]:
    """Patch moto to parse each condition expression's tree once; returns the function that restores it."""
    original = ConditionExpressionParser.parse
    trees: dict[Hashable, tuple[Any, tuple[str, ...], tuple[str, ...]]] = {}

    def parse(self: Any) -> Any:
        if not self.condition_expression:
            return original(self)
        try:
            key = _condition_key(self)
            kept = trees.get(key)
        except TypeError:  # a name or value not hashable: moto's own parse judges it
            return original(self)
        if kept is None:
            return _parse_and_keep(self, key)
        tree, names, values = kept
        self.expr_attr_names_found.extend(names)
        self.expr_attr_values_found.extend(values)
        return self._make_op_condition(_bound(tree, self._lookup_expression_attribute_value))

    def _parse_and_keep(self: Any, key: Hashable) -> Any:
        """moto's parse, its tree caught on its way to `_make_op_condition` and kept."""
        caught: list[Any] = []
        make = self._make_op_condition
        names_before, values_before = len(self.expr_attr_names_found), len(self.expr_attr_values_found)
        self._make_op_condition = lambda node: caught.append(node) or make(node)
        try:
            built = original(self)
        finally:
            del self._make_op_condition
        if len(trees) >= KEPT:
            trees.clear()
        found = tuple(self.expr_attr_names_found[names_before:]), tuple(self.expr_attr_values_found[values_before:])
        trees[key] = (_frozen(caught[0]), *found)
        return built

    ConditionExpressionParser.parse = parse  # type: ignore[method-assign]

    def restore() -> None:
        ConditionExpressionParser.parse = original  # type: ignore[method-assign]

    return restore


def cached_updates() -> Callable[[], None]:
    """Patch moto to parse each update expression's text once; returns the function that restores it."""
    original = vars(UpdateExpressionParser)["make"]
    parse = original.__func__
    trees: dict[str, Any] = {}

    def make(cls: Any, expression: str) -> Any:
        tree = trees.get(expression)
        if tree is None:
            tree = parse(cls, expression)  # one that fails is not kept
            if len(trees) >= KEPT:
                trees.clear()
            trees[expression] = tree
        return tree

    UpdateExpressionParser.make = classmethod(make)  # type: ignore[method-assign,assignment]

    def restore() -> None:
        UpdateExpressionParser.make = original

    return restore


def parsed_once() -> Callable[[], None]:
    """Both caches, once moto is the version pinned; returns the function that restores moto."""
    installed, changed = _installed(), changed_seams()
    if installed != PINNED_MOTO or changed:
        raise RuntimeError(
            f"local_stack.aws.moto_expressions is written against moto {PINNED_MOTO}; moto {installed} is "
            f"installed and these functions differ: {', '.join(changed)}. Re-check the seams."
        )
    restore_conditions, restore_updates = cached_conditions(), cached_updates()

    def restore() -> None:
        restore_updates()
        restore_conditions()

    return restore
