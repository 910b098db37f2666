"""Colour-vision deficiency simulation for the boards' palettes (Machado, Oliveira and Fernandes
2009, severity 1: protanopia, deuteranopia, tritanopia) and the CIE76 colour difference.

The boards never tell anything by colour alone (every colour has a shape, pattern or label beside
it); these checks say which colour pairs a colour-blind player cannot tell apart, so a test can
require that exactly those pairs differ by something else too.
"""

from __future__ import annotations

from itertools import combinations

#: The simulation matrices, applied to linear RGB.
MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
#: Below this CIE76 difference two flat colours are hard to tell apart at a glance (a cautious
#: bound: red and green under deuteranopia, #c0392b and #2f8a3b, differ by 13).
CONFUSABLE = 20.0


def _rgb(colour: str) -> tuple[float, float, float]:
    value = colour.lstrip("#")
    if len(value) == 3:
        value = "".join(ch * 2 for ch in value)
    r, g, b = (int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def simulate(colour: str, kind: str) -> str:
    """`colour` ("#rrggbb") as a person with `kind` of colour blindness sees it."""
    linear = [_linear(c) for c in _rgb(colour)]
    seen = [_gamma(sum(m * c for m, c in zip(row, linear, strict=True))) for row in MATRICES[kind]]
    return "#" + "".join(f"{round(c * 255):02x}" for c in seen)


def _lab(colour: str) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in _rgb(colour))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: str, b: str) -> float:
    """The CIE76 difference of two colours (about 2.3 is just noticeable)."""
    return float(sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5)


def confusable_pairs(palette: dict[str, str], threshold: float = CONFUSABLE) -> set[frozenset[str]]:
    """The pairs of `palette`'s names (name -> colour) that some colour blindness cannot tell
    apart by colour: these must differ by shape, pattern or label as well."""
    pairs = set()
    for (name_a, a), (name_b, b) in combinations(palette.items(), 2):
        if any(delta_e(simulate(a, kind), simulate(b, kind)) < threshold for kind in MATRICES):
            pairs.add(frozenset((name_a, name_b)))
    return pairs
