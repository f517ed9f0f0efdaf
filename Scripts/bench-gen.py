#!/usr/bin/env python3
"""bench-gen: writes the reference workload W(N, K) of issue 4 as an anim script.

Shape i (o0 ... o(N-1)) starts at (X(i,0), Y(i,0)) and runs a chain of K tweens of 0.5 s
joined by `then`; tween j (1..K) moves its center to (X(i,j), Y(i,j)) with cubic-in-out:

    X(i,j) = ((7i + 13j) mod 1000) + 10j        Y(i,j) = ((11i + 17j) mod 1000) + 5j

After the last frame the checksum, the sum of x + y over all shapes, is sum(X(i,K) + Y(i,K)).

usage: bench-gen.py N K [--scale S] > w.anim     (--scale multiplies every duration by S)
"""
import sys


def X(i, j):
    return (7 * i + 13 * j) % 1000 + 10 * j


def Y(i, j):
    return (11 * i + 17 * j) % 1000 + 5 * j


def main():
    args = sys.argv[1:]
    scale = 1
    if "--scale" in args:
        k = args.index("--scale")
        scale = int(args[k + 1])
        del args[k:k + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    n, k = int(args[0]), int(args[1])
    duration = f"{0.5 * scale:g}"
    out = [f"# W({n},{k}): {n} shapes, {k} tweens of {duration}s each; "
           f"checksum {sum(X(i, k) + Y(i, k) for i in range(n))}\n",
           "stage 1000 x 1000\n"]
    for i in range(n):
        out.append(f"rect o{i} center ({X(i, 0)},{Y(i, 0)})\n")
    for i in range(n):
        steps = [f"animate {duration} ease cubic-in-out < o{i}.center = ({X(i, j)},{Y(i, j)}) >"
                 for j in range(1, k + 1)]
        out.append(" then ".join(steps) + "\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
