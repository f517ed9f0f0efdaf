// CPNG: libpng's simplified API (png_image_*), which reports errors through png_image.message
// instead of longjmp, so Swift can call it directly (toolchain-notes §4).
#include <png.h>
