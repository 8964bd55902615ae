#ifndef EKI_CPNG_SHIM_H
#define EKI_CPNG_SHIM_H
/* libpng (Debian libpng-dev, pkg-config libpng): PNG encoding of drawn maps. Only EkiRender
   imports this module. libpng reports errors by longjmp, which Swift cannot catch, so the whole
   write is this one C function with its own setjmp. */
#include <png.h>
#include <setjmp.h>
#include <stddef.h>

/* Receives the encoded bytes as libpng produces them. */
typedef void (*eki_png_sink)(void *context, const unsigned char *bytes, size_t count);

static void eki_png_write_data(png_structp png, png_bytep data, png_size_t length) {
    void **io = (void **)png_get_io_ptr(png);
    ((eki_png_sink)io[0])(io[1], data, length);
}

static void eki_png_flush(png_structp png) { (void)png; }

/* Writes an opaque cairo ARGB32 / RGB24 image (native-endian 32-bit words, little-endian here:
   bytes B, G, R, X) as an 8-bit RGB PNG, no interlace, every row with `filter`
   (PNG_FILTER_SUB …), zlib level `level` (0–9). Returns 0, or -1 when libpng failed. */
static inline int eki_png_write_bgrx(const unsigned char *pixels, int width, int height, int stride,
                                     int level, int filter, eki_png_sink sink, void *context) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_write_struct(&png, NULL); return -1; }
    if (setjmp(png_jmpbuf(png))) { png_destroy_write_struct(&png, &info); return -1; }
    void *io[2] = { (void *)sink, context };
    png_set_write_fn(png, io, eki_png_write_data, eki_png_flush);
    png_set_compression_level(png, level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filter);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    png_set_bgr(png);
    png_set_filler(png, 0, PNG_FILLER_AFTER);
    for (int y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(pixels + (size_t)y * (size_t)stride));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}
#endif
