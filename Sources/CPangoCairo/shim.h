#ifndef EKI_CPANGOCAIRO_SHIM_H
#define EKI_CPANGOCAIRO_SHIM_H
/* Pango with its cairo back end (Debian libpango1.0-dev, pkg-config pangocairo): text layout
   and shaping for Japanese labels; fonts come from fontconfig by family name. Only
   EkiRender imports this module. */
#include <pango/pangocairo.h>

/** g_object_unref for a PangoLayout (GObject's macros do not import into Swift). */
static inline void eki_pango_layout_free(PangoLayout *layout) { g_object_unref(layout); }
#endif
