#ifndef EKI_CCOMPRESSION_SHIM_H
#define EKI_CCOMPRESSION_SHIM_H
#include <zlib.h>
#include <bzlib.h>

/// inflateInit2 is a macro; Swift needs a function.
static inline int eki_inflate_init2(z_stream *strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}

/// deflateInit2 is a macro too (gzip output: windowBits 15 + 16).
static inline int eki_deflate_init2(z_stream *strm, int level, int windowBits, int memLevel) {
    return deflateInit2(strm, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY);
}
#endif
