// CFreeType: FreeType's outline rasterizer (FT_Outline_Render with a gray span callback), its
// stroker (FT_Stroker) and its font loading, for the vector drawing layer (Output/Raster).
// FreeType reports errors as return codes, never by longjmp, so Swift calls it directly.
// Its headers are included through FT_FREETYPE_H and friends in C; Swift cannot expand those
// macros in an #include, so the files are named here.
#include <ft2build.h>
#include <freetype/freetype.h>
#include <freetype/ftimage.h>
#include <freetype/ftoutln.h>
#include <freetype/ftstroke.h>
#include <freetype/ftglyph.h>
