#ifndef EKI_CEXPAT_SHIM_H
#define EKI_CEXPAT_SHIM_H
#include <expat.h>
#endif
