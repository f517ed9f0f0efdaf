/* rlottie_render: renders frames of a Lottie document with rlottie (Telegram's player, Debian's
 * librlottie-dev) and writes each as a PNG through libpng's simplified API.
 *
 * Usage: rlottie_render DOC.json OUT_DIR FRAME...
 *
 * Prints the document as rlottie reads it (size, frame rate, frame count), then writes
 * OUT_DIR/rlottie-FRAME.png for each frame, at the document's own size. rlottie draws into
 * 32-bit words holding premultiplied ARGB (alpha in the top byte); PNG wants straight RGBA
 * bytes, so each pixel is unpremultiplied. Exit 1 if rlottie cannot read the document or a
 * PNG cannot be written; 2 for a usage error.
 *
 * Built by the picture tests: cc rlottie_render.c -o rlottie_render -lrlottie -lpng16
 */
#include <png.h>
#include <rlottie_capi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Premultiplied ARGB words to straight RGBA bytes, rounding to nearest. */
static void to_rgba(const uint32_t *argb, unsigned char *rgba, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint32_t p = argb[i];
        unsigned a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
        unsigned char *o = rgba + 4 * i;
        if (a == 0) {
            o[0] = o[1] = o[2] = o[3] = 0;
            continue;
        }
        /* c = c_premultiplied * 255 / a, kept within 0...255 (a premultiplied channel never
         * exceeds alpha in a well-formed buffer, but clamp all the same). */
        unsigned c[3] = {r, g, b};
        for (int k = 0; k < 3; k++) {
            unsigned v = (c[k] * 255 + a / 2) / a;
            o[k] = (unsigned char)(v > 255 ? 255 : v);
        }
        o[3] = (unsigned char)a;
    }
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: rlottie_render DOC.json OUT_DIR FRAME...\n");
        return 2;
    }
    Lottie_Animation *anim = lottie_animation_from_file(argv[1]);
    if (!anim) {
        fprintf(stderr, "rlottie_render: rlottie cannot read '%s'\n", argv[1]);
        return 1;
    }
    size_t w = 0, h = 0;
    lottie_animation_get_size(anim, &w, &h);
    size_t total = lottie_animation_get_totalframe(anim);
    printf("animation %zux%zu fr=%g frames=%zu\n", w, h, lottie_animation_get_framerate(anim), total);
    if (w == 0 || h == 0) {
        fprintf(stderr, "rlottie_render: '%s' has no size\n", argv[1]);
        lottie_animation_destroy(anim);
        return 1;
    }
    uint32_t *buffer = malloc(w * h * sizeof *buffer);
    unsigned char *rgba = malloc(w * h * 4);
    int status = 0;
    for (int i = 3; i < argc && buffer && rgba; i++) {
        char *end = NULL;
        unsigned long frame = strtoul(argv[i], &end, 10);
        if (!end || *end != '\0' || end == argv[i]) {
            fprintf(stderr, "rlottie_render: '%s' is not a frame number\n", argv[i]);
            status = 2;
            break;
        }
        memset(buffer, 0, w * h * sizeof *buffer);
        lottie_animation_render(anim, frame, buffer, w, h, w * sizeof *buffer);
        to_rgba(buffer, rgba, w * h);
        char path[4096];
        snprintf(path, sizeof path, "%s/rlottie-%s.png", argv[2], argv[i]);
        png_image img;
        memset(&img, 0, sizeof img);
        img.version = PNG_IMAGE_VERSION;
        img.width = (png_uint_32)w;
        img.height = (png_uint_32)h;
        img.format = PNG_FORMAT_RGBA;
        if (!png_image_write_to_file(&img, path, 0, rgba, 0, NULL)) {
            fprintf(stderr, "rlottie_render: cannot write '%s': %s\n", path, img.message);
            status = 1;
            break;
        }
    }
    if (!buffer || !rgba) {
        fprintf(stderr, "rlottie_render: out of memory\n");
        status = 1;
    }
    free(buffer);
    free(rgba);
    lottie_animation_destroy(anim);
    return status;
}
