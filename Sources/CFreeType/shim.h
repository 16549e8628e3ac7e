#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_BITMAP_H

/* Swift cannot import these macros, so they are restated as functions. */
static inline FT_Int32 signd_ft_load_target_mono(void) { return FT_LOAD_TARGET_MONO; }
static inline int signd_ft_has_color(FT_Face face) { return FT_HAS_COLOR(face) ? 1 : 0; }
static inline int signd_ft_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }
static inline int signd_ft_is_scalable(FT_Face face) { return FT_IS_SCALABLE(face) ? 1 : 0; }
static inline FT_Int32 signd_ft_load_color(void) { return FT_LOAD_COLOR; }
