#ifndef STICKERS_CFREETYPE_SHIM_H
#define STICKERS_CFREETYPE_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H

// FreeType's load flags are macros of long shifts; named here as constants Swift imports as they are.
static const FT_Int32 stickers_ft_load_render = FT_LOAD_RENDER;
static const FT_Int32 stickers_ft_load_default = FT_LOAD_DEFAULT;

#endif
