#ifndef EKI_CCAIRO_SHIM_H
#define EKI_CCAIRO_SHIM_H
/* cairo (Debian libcairo2-dev, pkg-config cairo): 2-D drawing into image surfaces and PNG
   files. Only EkiRender imports this module. */
#include <cairo.h>
#endif
