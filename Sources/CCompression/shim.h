#ifndef EKI_CCOMPRESSION_SHIM_H
#define EKI_CCOMPRESSION_SHIM_H
#include <zlib.h>
#include <bzlib.h>

/// inflateInit2 is a macro; Swift needs a function.
static inline int eki_inflate_init2(z_stream *strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif
