#ifndef EKI_CCURL_SHIM_H
#define EKI_CCURL_SHIM_H
#include <curl/curl.h>
/* Typed wrappers for the variadic curl_easy_setopt / curl_easy_getinfo are added by the
   geocoding HTTP client. */
#endif
