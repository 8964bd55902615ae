#ifndef EKI_CARCHIVE_SHIM_H
#define EKI_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#endif
