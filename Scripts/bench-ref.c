/* bench-ref: the C reference for `anim bench` on the workload W(N, K) of issue 4 — the same
 * loop written by hand: a precomputed segment table per shape, a cursor per shape, and per
 * frame the ease and lerp of every shape's x and y. Frame f is at t = f/fps s, computed from f
 * in integer nanoseconds as anim does. Only the frame loop is timed (not building the table).
 *
 * usage: bench-ref N K [fps [repeat]]      build: cc -O2 -o bench-ref bench-ref.c
 * With `repeat` the frame loop runs that many times from the first frame and the fastest counts,
 * as `anim bench --repeat` does.
 * prints: samples=... sample=...s ns/sample=... checksum=...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* One tween of one shape: it begins at t0 and lasts d (nanoseconds). */
struct segment {
    int64_t t0, d;
    double x0, y0, x1, y1;
};

static long X(long i, long j) { return (7 * i + 13 * j) % 1000 + 10 * j; }
static long Y(long i, long j) { return (11 * i + 17 * j) % 1000 + 5 * j; }

/* cubic-in-out: 4p^3 below p = 0.5, else 1 - (2 - 2p)^3 / 2 */
static inline double ease(double p) {
    if (p < 0.5) return 4 * p * p * p;
    double q = 2 - 2 * p;
    return 1 - q * q * q / 2;
}

/* The sampled values (global, so the stores are observable). */
double *xs, *ys;

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: bench-ref N K [fps]\n"); return 2; }
    long n = atol(argv[1]), k = atol(argv[2]), fps = argc > 3 ? atol(argv[3]) : 60;
    long repeats = argc > 4 ? atol(argv[4]) : 1;
    const int64_t tween = 500000000;  /* 0.5 s */

    struct segment *segs = malloc(sizeof *segs * n * k);
    int32_t *cursor = calloc(n, sizeof *cursor);
    xs = malloc(sizeof *xs * n);
    ys = malloc(sizeof *ys * n);
    for (long i = 0; i < n; i++) {
        xs[i] = X(i, 0);
        ys[i] = Y(i, 0);
        for (long j = 0; j < k; j++) {
            struct segment *s = &segs[i * k + j];
            s->t0 = j * tween;
            s->d = tween;
            s->x0 = X(i, j); s->y0 = Y(i, j);
            s->x1 = X(i, j + 1); s->y1 = Y(i, j + 1);
        }
    }

    /* The last frame at or before the end, K * 0.5 s. */
    int64_t end = k * tween;
    long frames = 0;
    while (((frames + 1) * 1000000000LL + fps / 2) / fps <= end) frames++;

    double seconds = 0;
    for (long pass = 0; pass < (repeats < 1 ? 1 : repeats); pass++) {
        for (long i = 0; i < n; i++) cursor[i] = 0;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (long f = 1; f <= frames; f++) {
            int64_t t = (f * 1000000000LL + fps / 2) / fps;
            for (long i = 0; i < n; i++) {
                const struct segment *s = &segs[i * k + cursor[i]];
                while (t >= s->t0 + s->d && cursor[i] < k - 1) { cursor[i]++; s++; }
                int64_t u = t - s->t0;
                if (u >= s->d) { xs[i] = s->x1; ys[i] = s->y1; continue; }
                double e = ease((double)u / (double)s->d);
                xs[i] = s->x0 + (s->x1 - s->x0) * e;
                ys[i] = s->y0 + (s->y1 - s->y0) * e;
            }
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        double d = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
        if (pass == 0 || d < seconds) seconds = d;
    }

    long samples = n * 2 * frames;
    double checksum = 0;
    for (long i = 0; i < n; i++) checksum += xs[i] + ys[i];
    printf("samples=%ld sample=%.4fs ns/sample=%.3f checksum=%.0f\n", samples, seconds, seconds * 1e9 / samples, checksum);
    return 0;
}
