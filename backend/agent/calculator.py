"""A safe calculator: the expression is parsed to a Python AST and only arithmetic is evaluated.

Allowed: numbers, + - * / // % **, parentheses, a few math functions and constants. Sizes are bounded
before anything is computed — an exponent whose result would exceed `MAX_RESULT_BITS` (`9**9**9`),
a huge factorial-like product, a long or deeply nested expression — so no input can stall the server.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable

MAX_EXPRESSION_CHARS = 500
MAX_NODES = 200
MAX_RESULT_BITS = 4096
Number = int | float


class CalculatorError(ValueError):
    """An expression that is not plain arithmetic, or whose result would be too large."""


_FUNCTIONS: dict[str, Callable[..., Number]] = {
    "sqrt": math.sqrt, "abs": abs, "round": round, "log": math.log, "log10": math.log10, "log2": math.log2,
    "exp": math.exp, "sin": math.sin, "cos": math.cos, "tan": math.tan, "floor": math.floor, "ceil": math.ceil,
    "min": min, "max": max,
}
_CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "tau": math.tau}
_BINARY: dict[type[ast.operator], Callable[[Number, Number], Number]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[Number], Number]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}


def evaluate(expression: str) -> Number:
    """The value of an arithmetic expression, e.g. `evaluate("2 * (3 + 4) ** 2") == 98`."""
    text = expression.strip().replace("^", "**").replace("×", "*").replace("÷", "/")
    if not text:
        raise CalculatorError("the expression is empty")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise CalculatorError(f"the expression is longer than {MAX_EXPRESSION_CHARS} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise CalculatorError(f"not a valid expression: {exc.msg}") from exc
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise CalculatorError("the expression is too complex")
    try:
        return _eval(tree.body)
    except ZeroDivisionError as exc:
        raise CalculatorError("division by zero") from exc
    except OverflowError as exc:
        raise CalculatorError("the result is too large") from exc
    except (ValueError, TypeError) as exc:
        raise CalculatorError(f"cannot compute this: {exc}") from exc


def format_number(value: Number) -> str:
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return f"{value:.12g}"
    return str(value)


def _eval(node: ast.expr) -> Number:
    if isinstance(node, ast.Constant) and (type(node.value) is int or type(node.value) is float):  # not bool
        return node.value
    if isinstance(node, ast.Name) and node.id in _CONSTANTS:
        return _CONSTANTS[node.id]
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        _check_size(node.op, left, right)
        return _checked(_BINARY[type(node.op)](left, right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS:
        if node.keywords:
            raise CalculatorError("functions take positional arguments only")
        return _checked(_FUNCTIONS[node.func.id](*(_eval(arg) for arg in node.args)))
    raise CalculatorError(f"only arithmetic is allowed (found {ast.unparse(node)!r})")


def _bits(value: Number) -> float:
    """Binary magnitude of a number (floats overflow on their own, so only ints matter)."""
    return abs(value).bit_length() if isinstance(value, int) else 0.0


def _check_size(op: ast.operator, left: Number, right: Number) -> None:
    if isinstance(op, ast.Pow):
        if isinstance(left, int) and isinstance(right, int) and abs(left) > 1:
            if right > 0 and _bits(left) * right > MAX_RESULT_BITS:
                raise CalculatorError(f"the result would have more than {MAX_RESULT_BITS} bits")
        elif isinstance(right, int | float) and abs(right) > 10_000 and abs(left) not in (0, 1):
            raise CalculatorError("the exponent is too large")
    elif isinstance(op, ast.Mult) and _bits(left) + _bits(right) > MAX_RESULT_BITS:
        raise CalculatorError(f"the result would have more than {MAX_RESULT_BITS} bits")


def _checked(value: Number | complex) -> Number:
    if isinstance(value, complex):
        raise CalculatorError("the result is not a real number")
    if isinstance(value, int) and _bits(value) > MAX_RESULT_BITS:
        raise CalculatorError(f"the result would have more than {MAX_RESULT_BITS} bits")
    return value
