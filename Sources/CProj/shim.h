#ifndef EKI_CPROJ_SHIM_H
#define EKI_CPROJ_SHIM_H
/// PROJ's geodesic API (Karney's algorithms, C. F. F. Karney, "Algorithms for geodesics",
/// J. Geodesy 87, 43–55, 2013): geod_init and geod_inverse. Only this header of PROJ is used.
#include <geodesic.h>
#endif
