#include <png.h>

/* PNG_FORMAT_RGBA is a macro Swift does not import. */
static const png_uint_32 signd_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 signd_png_format_rgb = PNG_FORMAT_RGB;
