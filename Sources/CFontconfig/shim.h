// CFontconfig: finding a font file by family and weight (FcFontMatch), for text in the vector
// drawing layer (Output/Raster/Fonts.swift).
#include <fontconfig/fontconfig.h>
