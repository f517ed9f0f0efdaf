"""Loads a Lottie document with the `lottie` package (python-lottie) and renders frames of it.

Usage: lottie_render.py DOC.json OUT_DIR FRAME...

Fails (exit 1) if the reader rejects the document or warns about it. Prints one line per layer
as the reader understood it, then writes OUT_DIR/lottie-FRAME.png for each frame, rendered by
the package's own SVG exporter and cairosvg.
"""
import sys
import warnings

warnings.simplefilter("error")  # a warning from the reader is a rejection

from lottie import objects  # noqa: E402
from lottie.exporters.cairo import export_png  # noqa: E402
from lottie.parsers.tgs import parse_tgs  # noqa: E402


def main():
    doc, out, frames = sys.argv[1], sys.argv[2], sys.argv[3:]
    anim = parse_tgs(doc)
    if not isinstance(anim, objects.Animation):
        sys.exit("not an animation")
    print(f"animation {anim.width}x{anim.height} fr={anim.frame_rate} ip={anim.in_point} op={anim.out_point}")
    for layer in anim.layers:
        print(f"layer {layer.name} {type(layer).__name__} shapes={len(getattr(layer, 'shapes', []) or [])}")
    for f in frames:
        export_png(anim, f"{out}/lottie-{f}.png", float(f))


if __name__ == "__main__":
    main()
