#ifndef EKI_CVIPS_SHIM_H
#define EKI_CVIPS_SHIM_H
/* libvips (Debian libvips-dev, 8.14): the photos of visits (EkiPhotos/PhotoProcessor.swift is the
   one caller). libvips's operations take NULL-terminated variadic options, which Swift cannot
   call: each one used here has a typed wrapper below. Every function returning an image returns
   a new reference (g_object_unref it) or NULL with the reason in vips_error_buffer(). */
#include <vips/vips.h>

/* Starts libvips once per process: untrusted loaders (those libvips marks as not safe for
   hostile input, e.g. ImageMagick, OpenSlide, Matlab) are blocked and the operation cache is off
   (each photo is seen once; the cache would only hold memory). */
static void eki_vips_quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}
/* libvips's own warnings ("error in tile …") are not printed: the error that follows names the file. */
static inline int eki_vips_start(void) {
    if (VIPS_INIT("eki")) return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, eki_vips_quiet, NULL);
    vips_block_untrusted_set(TRUE);
    vips_cache_set_max(0);
    return 0;
}

/* The image's header only (pixels are not decoded until asked for): size and loader. */
static inline VipsImage *eki_vips_header(const void *buf, size_t len) {
    return vips_image_new_from_buffer(buf, len, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

/* Decodes `buf` shrunk to fit `size` x `size` (never enlarged), turned upright by its
   orientation tag; shrink-on-load where the format has it (JPEG, WebP, HEIC). A truncated or
   broken file fails when its pixels are read, and so does one whose decoder only warns (a JPEG
   with corrupt scan data: libjpeg's "Corrupt JPEG data" would leave the rest grey):
   fail_on=warning (VIPS_FAIL_ON_WARNING). It goes in `option_string`, the loader's options:
   thumbnail_buffer's own `fail_on` property does not reach the loader in libvips 8.14. */
static inline VipsImage *eki_vips_thumbnail_buffer(const void *buf, size_t len, int size) {
    VipsImage *out = NULL;
    if (vips_thumbnail_buffer((void *)buf, len, &out, size, "height", size, "size", VIPS_SIZE_DOWN,
                              "option_string", "fail_on=warning", NULL)) return NULL;
    return out;
}

/* `in` shrunk to fit `size` x `size` (never enlarged), not rotated again. */
static inline VipsImage *eki_vips_thumbnail_image(VipsImage *in, int size) {
    VipsImage *out = NULL;
    if (vips_thumbnail_image(in, &out, size, "height", size, "size", VIPS_SIZE_DOWN, "no_rotate", TRUE, NULL)) return NULL;
    return out;
}

/* `in` as 8-bit sRGB with no alpha: an embedded ICC profile is applied (to sRGB), any other
   colour space converted, transparency laid on white. */
static inline VipsImage *eki_vips_srgb(VipsImage *in) {
    VipsImage *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    if (vips_image_get_typeof(in, VIPS_META_ICC_NAME)) {
        if (vips_icc_transform(in, &a, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_PERCEPTUAL, NULL)) return NULL;
    } else {
        g_object_ref(in);
        a = in;
    }
    int rc = vips_colourspace(a, &b, VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(a);
    if (rc) return NULL;
    if (vips_image_hasalpha(b)) {
        double white[3] = {255, 255, 255};
        VipsArrayDouble *bg = vips_array_double_new(white, 3);
        rc = vips_flatten(b, &c, "background", bg, NULL);
        vips_area_unref(VIPS_AREA(bg));
        g_object_unref(b);
        if (rc) return NULL;
    } else {
        c = b;
    }
    rc = vips_cast_uchar(c, &d, NULL);
    g_object_unref(c);
    return rc ? NULL : d;
}

/* Baseline (not progressive) JPEG of `in` at quality `q` (1-100) with every metadata block
   left out (strip: EXIF, GPS, XMP, IPTC, ICC, comments); free *buf with g_free. */
static inline int eki_vips_jpeg(VipsImage *in, int q, void **buf, size_t *len) {
    return vips_jpegsave_buffer(in, buf, len, "Q", q, "strip", TRUE, "interlace", FALSE,
                                "optimize_coding", TRUE, NULL);
}

/* The time bound: while `image` is computed, libvips reports progress; once the monotonic clock
   passes *deadline (microseconds, g_get_monotonic_time) the computation is stopped and fails. */
static void eki_vips_eval(VipsImage *image, VipsProgress *progress, void *deadline) {
    (void)progress;
    if (g_get_monotonic_time() > *(const gint64 *)deadline) vips_image_set_kill(image, TRUE);
}
static inline void eki_vips_set_deadline(VipsImage *image, gint64 *deadline) {
    vips_image_set_progress(image, TRUE);
    g_signal_connect(image, "eval", G_CALLBACK(eki_vips_eval), deadline);
}

/* Samples for tests and benchmarks: a smooth colour gradient, or incompressible RGB noise. */
static inline VipsImage *eki_vips_sample(int width, int height, int noise) {
    VipsImage *bands[3] = {NULL, NULL, NULL}, *joined = NULL, *out = NULL;
    for (int i = 0; i < 3; i++) {
        if (noise) {
            if (vips_gaussnoise(&bands[i], width, height, "sigma", 90.0, "mean", 128.0, "seed", 7 + i, NULL)) goto fail;
        } else {
            VipsImage *x = NULL;
            if (i == 0 ? vips_xyz(&x, width, height, NULL) : vips_grey(&x, width, height, NULL)) goto fail;
            VipsImage *one = NULL;
            if (vips_extract_band(x, &one, 0, NULL)) { g_object_unref(x); goto fail; }
            g_object_unref(x);
            double scale = i == 0 ? 255.0 / width : (i == 1 ? 255.0 : -255.0);
            double offset = i == 2 ? 255.0 : 0.0;
            if (vips_linear1(one, &bands[i], scale, offset, NULL)) { g_object_unref(one); goto fail; }
            g_object_unref(one);
        }
    }
    if (vips_bandjoin(bands, &joined, 3, NULL)) goto fail;
    for (int i = 0; i < 3; i++) g_object_unref(bands[i]);
    if (vips_cast_uchar(joined, &out, NULL)) { g_object_unref(joined); return NULL; }
    g_object_unref(joined);
    out->Type = VIPS_INTERPRETATION_sRGB;
    return out;
fail:
    for (int i = 0; i < 3; i++) if (bands[i]) g_object_unref(bands[i]);
    return NULL;
}
static inline int eki_vips_png(VipsImage *in, void **buf, size_t *len) {
    return vips_pngsave_buffer(in, buf, len, "compression", 1, NULL);
}
static inline int eki_vips_webp(VipsImage *in, void **buf, size_t *len) {
    return vips_webpsave_buffer(in, buf, len, "Q", 80, NULL);
}
static inline int eki_vips_heif(VipsImage *in, void **buf, size_t *len) {
    return vips_heifsave_buffer(in, buf, len, "Q", 60, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_HEVC, NULL);
}
#endif
